#!/usr/bin/env python3
"""paired — skynet's and fib's T1/T_S with both halves of each ratio in one
process, timed back to back, many rounds (issue 26).

On a shared 2-vCPU guest the speed of the same binary changes by 30% from
second to second and from process to process (the code's placement), more
than the effects being measured; whole-process medians (spawncost.py) mix
those states.  Here each round times the serial elision and the lowered
build of skynet and of fib one after the other, and the percentiles of the
rounds' ratios are printed (p5 and p25: the machine at its quietest).

  examples/harness/paired.py                    # 2000 rounds, 10^5 leaves, fib(23)
  examples/harness/paired.py --variant thep --rounds 500

Needs the build's ws-clang (build/bin) and clang-19; runs one worker.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(ROOT, "examples", "harness", "paired")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--variant", default="ffmb")
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--leaves", type=int, default=100000)
    ap.add_argument("--fib", type=int, default=23)
    a = ap.parse_args()
    wsclang = os.path.join(a.build, "bin", "ws-clang")
    clang = shutil.which("clang-19") or "/usr/lib/llvm-19/bin/clang"
    for tool in (wsclang, clang):
        if not os.access(tool, os.X_OK):
            sys.exit("paired: %s not found (build the project first)" % tool)
    with tempfile.TemporaryDirectory() as tmp:
        ser, par, exe = (os.path.join(tmp, f) for f in ("ser.o", "par.o", "paired"))
        src = os.path.join(HERE, "kernels.c")
        steps = [
            [clang, "-O2", "-I" + os.path.join(ROOT, "runtime", "include"),
             "-DSUFFIX=_ser", "-c", src, "-o", ser],
            [wsclang, "-fws-fencefree=" + a.variant, "-O2", "-DSUFFIX=_par",
             "-c", src, "-o", par],
            [wsclang, "-fws-fencefree=" + a.variant, "-O2",
             os.path.join(HERE, "driver.c"), ser, par, "-o", exe],
        ]
        for cmd in steps:
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                sys.exit("paired: %s failed:\n%s" % (" ".join(cmd), r.stderr))
        env = dict(os.environ, WS_NUM_WORKERS="1")
        r = subprocess.run([exe, str(a.rounds), str(a.leaves), str(a.fib)],
                           env=env, capture_output=True, text=True)
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr)
        print("(%s, one worker; %d leaves, fib(%d))" % (a.variant, a.leaves, a.fib))
        return r.returncode


if __name__ == "__main__":
    sys.exit(main())
