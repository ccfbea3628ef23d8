#!/usr/bin/env python3
"""The owner's read of H in the fenced takes (THE, Chase-Lev) on AArch64.

take() exchanges T := t (seq_cst) and then reads H.  On ARMv8 a plain ldr
after the exchange may be satisfied before the exchange's store is visible
(ldaxr/stlxr without LSE), and owner and thief both take the last task: the
read must be an ldar (a seq_cst load, ordered after stlxr and swpal).  Checks
the fast paths compiled for Cortex-A53 (LL/SC, inline and through the
outline-atomics helper) and Neoverse-N1 (LSE swpal), and that the x86 take
still reads H with a plain mov after its xchg.

usage: take_order.py <clang> <llvm-objdump> <runtime dir> <work dir>
"""
import os
import re
import subprocess
import sys

clang, objdump, rt, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)

CONFIGS = [
    ("aarch64-linux-gnu", ["-mcpu=cortex-a53", "-mno-outline-atomics"], r"stlxr", r"ldar\b"),
    ("aarch64-linux-gnu", ["-mcpu=cortex-a53"], r"bl\b", r"ldar\b"),  # __aarch64_swp8_acq_rel
    ("aarch64-linux-gnu", ["-mcpu=neoverse-n1"], r"swpal\b", r"ldar\b"),
    ("x86_64-linux-gnu", [], r"xchg", r"(mov|cmp)\w*\b"),
]

failed = 0
for variant in ("the", "cl"):
    for triple, flags, exchange, want in CONFIGS:
        obj = os.path.join(work, f"take_{variant}_{triple}{''.join(flags)}.o")
        subprocess.run([clang, f"--target={triple}", *flags, "-O2", "-fPIC", "-std=gnu11",
                        "-DWS_FASTPATH_ONLY", f"-I{rt}/include", f"-I{rt}/src", "-c",
                        f"{rt}/src/deque_{variant}.c", "-o", obj], check=True)
        dis = subprocess.run([objdump, "-d", "--no-show-raw-insn", obj], check=True,
                             capture_output=True, text=True).stdout
        m = re.search(rf"<__ws_take_{variant}>:\n(.*?)(\n\n|\Z)", dis, re.S)
        insns = [l.split("\t", 1)[1].strip() for l in m.group(1).splitlines() if "\t" in l]
        i = next((k for k, s in enumerate(insns) if re.match(exchange, s)), None)
        # The first memory read after the exchange: x86 folds it into a cmp.
        load = None
        if i is not None:
            for s in insns[i + 1:]:
                if re.match(r"ld", s) or (triple.startswith("x86") and "(" in s):
                    load = s
                    break
        ok = load is not None and re.match(want, load)
        what = f"{variant} {triple} {' '.join(flags)}"
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {insns[i] if i is not None else '(no exchange)'}"
              f" then {load}")
        if not ok:
            failed += 1
            print("\n".join("    " + s for s in insns))
sys.exit(1 if failed else 0)
