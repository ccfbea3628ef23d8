#!/usr/bin/env python3
"""fastpaths — what fib's spawn and sync cost in AArch64 instructions, per
variant (docs/aarch64.md): a static count from the disassembly, since qemu
gives no honest timings.

For each variant sound without bounded TSO and each CPU (-mcpu=cortex-a53:
ARMv8.0, LL/SC atomics through the outline-atomics helpers; -mcpu=
neoverse-n1: ARMv8.2, LSE), compiles examples/fib/fib.c with ws-clang
--target=aarch64-linux-gnu -O2 and prints, for fib's lowered body
(fib.ws.body), its instruction count and its ordering instructions: stlr
(release stores: the publishing T stores), ldar (seq_cst loads), swpal /
ldaxr+stlxr / calls of __aarch64_* helpers (the exchanges: a full barrier),
dmb.  The inlined take of ffmb is a release store of T, a plain load of H,
a compare and the anti-coalescing store; the fenced takes add an exchange
and an ldar.

usage: fastpaths.py <build dir> [source dir]
"""
import os
import re
import subprocess
import sys

build = sys.argv[1]
src = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..")
variants_def = os.path.join(src, "runtime", "include", "ws", "variants.def")
weak = [m.group(1) for m in re.finditer(r"^WS_WEAK_MEMORY\((\w+), *1,", open(variants_def).read(), re.M)]
objdump = "llvm-objdump-19"
for cand in ("llvm-objdump-19", "llvm-objdump"):
    if subprocess.run(["sh", "-c", f"command -v {cand}"], capture_output=True).returncode == 0:
        objdump = cand
        break

ORDERING = [("stlr", r"^stlr"), ("ldar", r"^ldar"), ("swpal", r"^swp"),
            ("ldaxr/stlxr", r"^(ldaxr|stlxr)"), ("__aarch64_*", r"__aarch64_"), ("dmb", r"^dmb")]
print("| -mcpu | variant | fib.ws.body instructions | " + " | ".join(n for n, _ in ORDERING) + " |")
print("| --- | --- | --- | " + " | ".join("---" for _ in ORDERING) + " |")
tmp = os.path.join(build, "tests", "aarch64", "fastpaths")
os.makedirs(tmp, exist_ok=True)
for cpu in ("cortex-a53", "neoverse-n1"):
    for v in weak:
        obj = os.path.join(tmp, f"fib-{v}-{cpu}.o")
        subprocess.run([os.path.join(build, "bin", "ws-clang"), "--target=aarch64-linux-gnu",
                        f"-mcpu={cpu}", f"-fws-fencefree={v}", "-O2", "-c",
                        os.path.join(src, "examples", "fib", "fib.c"), "-o", obj], check=True)
        dis = subprocess.run([objdump, "-dr", "--no-show-raw-insn", obj], check=True,
                             capture_output=True, text=True).stdout
        body = re.search(r"<fib\.ws\.body>:\n(.*?)(\n\n|\Z)", dis, re.S).group(1)
        insns, relocs = [], []
        for line in body.splitlines():
            if "R_AARCH64" in line:
                relocs.append(line.split()[-1])
            elif "\t" in line:
                insns.append(line.split("\t", 1)[1].strip())
        counts = []
        for name, pat in ORDERING:
            pool = relocs if name == "__aarch64_*" else insns
            counts.append(sum(1 for s in pool if re.search(pat, s)))
        print(f"| {cpu} | {v} | {len(insns)} | " + " | ".join(map(str, counts)) + " |")
