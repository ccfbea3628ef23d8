#!/usr/bin/env python3
"""unchanged — does a build compile a program without -fws-scale exactly as
a base build does?  (Issue 16: the serial elision and the normal fast path
are untouched when the flag is absent.)

Compiles the program (default: examples/fib/fib.c) with the ws-clang of
both builds, as its serial elision and with -fws-fencefree=V for each
variant asked for, and compares the optimized IR text (after the
lowering; the DIFile records, which name each build's own copy of ws/ws.h,
aside), the binaries byte for byte, and the instructions each executes
in its own code (the program and the runtime linked into it: the dynamic
loader and libc vary a little from run to run) under valgrind's callgrind
on one worker.  Exits 1 when any pair differs.

  examples/harness/unchanged.py --base /path/to/main/build
  examples/harness/unchanged.py --base B --variants thep,the,split -- 25

The base build needs its ws-drivers target (cmake --build B --target
ws-drivers): the driver, the plugin and the runtime.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import variants

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def compile_ir(driver, flags, src, out):
    subprocess.run([driver] + flags + ["-O2", "-S", "-emit-llvm", src, "-o", out],
                   check=True)
    with open(out) as f:
        # Both compile the same file from the same directory; what still
        # differs is where each build's headers are (ws/ws.h's inline
        # functions carry a DIFile of their own), which is no code.
        return [line for line in f
                if not line.startswith(("; ModuleID", "source_filename"))
                and not re.match(r"!\d+ = !DIFile\(", line)]


def instructions(exe, args, tmp):
    """Instructions executed in the executable's own code (callgrind, one
    worker): deterministic, unlike the total."""
    out = os.path.join(tmp, "callgrind.out")
    env = dict(os.environ, WS_NUM_WORKERS="1")
    for var in ("WS_DEQUE", "WS_STATS", "WS_STORE_BUFFER"):
        env.pop(var, None)
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        exe] + args, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{exe}: {p.stderr.strip()[-300:]}")
    p = subprocess.run(["callgrind_annotate", "--threshold=100", out],
                       capture_output=True, text=True, check=True)
    total = 0
    for line in p.stdout.splitlines():
        m = re.match(r"\s*([\d,]+) .*\[(.*)\]$", line)
        if m and m.group(2) == exe:
            total += int(m.group(1).replace(",", ""))
    return total


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the base build directory")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--source", default=os.path.join(ROOT, "examples", "fib", "fib.c"))
    ap.add_argument("--variants", default=",".join(variants.names()),
                    help="comma-separated (default: every row of ws/variants.def)")
    ap.add_argument("args", nargs="*", default=["25"], help="the program's arguments")
    a = ap.parse_args(argv)
    if not shutil.which("valgrind"):
        sys.exit("unchanged: no valgrind (apt-get install valgrind)")
    drivers = {"base": os.path.join(a.base, "bin", "ws-clang"),
               "this": os.path.join(a.build, "bin", "ws-clang")}
    configs = [("serial elision", [])] + [
        (f"-fws-fencefree={v}", [f"-fws-fencefree={v}"]) for v in a.variants.split(",")]
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        # Both compile the same file name from the same directory, so that
        # the names in the IR and the module record match.
        src = os.path.join(tmp, os.path.basename(a.source))
        shutil.copy(a.source, src)
        # Its own directory stays on the include path ("../common/bench.h").
        inc = ["-I" + os.path.dirname(os.path.abspath(a.source))]
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            for name, flags in configs:
                ir, ins, exes = {}, {}, {}
                for side, driver in drivers.items():
                    ir[side] = compile_ir(driver, flags + inc, os.path.basename(src),
                                          f"{side}.ll")
                    exe = os.path.join(tmp, f"{side}.exe")
                    subprocess.run([driver] + flags + inc + ["-O2", os.path.basename(src),
                                                             "-o", exe], check=True)
                    ins[side] = instructions(exe, a.args, tmp)
                    with open(exe, "rb") as f:
                        exes[side] = f.read()
                same_ir = ir["base"] == ir["this"]
                same_exe = exes["base"] == exes["this"]
                same_ins = ins["base"] == ins["this"]
                differ |= not (same_ir and same_exe and same_ins)
                print(f"{name:24} IR {'identical' if same_ir else 'DIFFERS'} "
                      f"({len(ir['this'])} lines), binary "
                      f"{'identical' if same_exe else 'DIFFERS'}, instructions "
                      f"{ins['base']} and {ins['this']}: "
                      f"{'same' if same_ins else 'DIFFER'}")
        finally:
            os.chdir(cwd)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
