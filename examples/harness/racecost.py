#!/usr/bin/env python3
"""racecost.py — what -fws-race costs, per example program (docs/race.md).

For every benchmark of the suite it builds three programs and runs them,
interleaved, several repetitions, medians:

  serial   the serial elision, clang-19 -O2 (T_S)
  tsan     the serial elision under plain ThreadSanitizer (-fsanitize=thread)
  race     ws-clang -fws-race -O2 (determinacy races, libws_race)

and prints a markdown table of the medians of each run's CPU time (user +
system) and of the race
build's maximum resident set size (both measured by /usr/bin/time), with
race/serial and race/tsan.  A race
build that reports a race, or any build that fails, is an error: the
examples are race-free.

Inputs (--size): "race" (the default), where the serial elision takes at
least 0.2 s of CPU on the 2-vCPU development guest; "small", the ctest
inputs (a few milliseconds: start-up weighs in); "default", the suite's.
--only picks benchmarks by name.  Besides the examples, "fib-checked" is
fib whose results go through pointers into the parent's frame (a checked
write per call, spawns that cannot be elided: examples/fib's own fib makes
no checked access, and -fws-race leaves its spawns unhooked), for memory:
it is run at 35 whatever the size, where it makes 30 million spawns.

usage: racecost.py [--build DIR] [--reps N] [--size race|small|default]
                   [--only NAME,...] [--out FILE]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import machine
import suite

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LIBS = {"cholesky": ["-lm"], "fft": ["-lm"], "heat": ["-lm"], "integrate": ["-lm"],
        "jacobi": ["-lm"], "knapsack": ["-lm"], "lud": ["-lm"], "strassen": ["-lm"],
        "uts": ["-lm"]}
FLAGS = ["-O2", "-g0", "-w"]

# Serial elision at least 0.2 s of CPU (clang-19 -O2, the development guest).
RACE_SIZES = {
    "fib": ["40"], "jacobi": ["1024", "150"], "quicksort": ["4000000"],
    "matmul": ["1024"], "integrate": ["4000"], "knapsack": ["30"],
    "cholesky": ["1500"], "heat": ["2048", "512", "80"], "lud": ["1400"],
    "strassen": ["2048"], "fft": ["21"], "nqueens": ["13"], "uts-geo": ["T2"],
    "uts-bin": ["T3"], "reduce": ["4194304", "1024", "40", "4"], "skynet": ["8"],
    "qmatmul": ["2048"],
}

FIB_CHECKED = r"""
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

static void fib(long n, long *out) {
  if (n < 2) {
    *out = n;
    return;
  }
  long a, b;
  ws_spawn_void(fib, n - 1, &a);
  fib(n - 2, &b);
  ws_sync();
  *out = a + b;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 30, r;
  fib(n, &r);
  printf("fib(%ld) = %ld\n", n, r);
  return 0;
}
"""


def source(tmp, program):
    if program == "fib-checked":
        path = os.path.join(tmp, "fib-checked.c")
        if not os.path.exists(path):
            with open(path, "w") as f:
                f.write(FIB_CHECKED)
        return path
    return os.path.join(ROOT, "examples", program, program + ".c")


def build(build_dir, tmp, program, kind, out):
    src = source(tmp, program)
    libs = LIBS.get(program, [])
    if kind == "race":
        cmd = [os.path.join(build_dir, "bin", "ws-clang"), "-fws-race"] + FLAGS
    else:
        cmd = ["clang-19", "-I" + os.path.join(ROOT, "runtime", "include")] + FLAGS
        if kind == "tsan":
            cmd.append("-fsanitize=thread")
    subprocess.run(cmd + [src, "-o", out] + libs, check=True)


TIME = "/usr/bin/time"


def run(exe, args):
    """(CPU seconds, wall seconds, max RSS in MiB) of one run.  Through
    /usr/bin/time: a child forked from Python counts the interpreter's
    resident set in its own maximum even after exec."""
    with tempfile.NamedTemporaryFile("r") as t, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        p = subprocess.run([TIME, "-f", "%U %S %M", "-o", t.name, exe] + args,
                           stdout=subprocess.DEVNULL, stderr=err)
        wall = time.perf_counter() - start
        if p.returncode != 0:
            err.seek(0)
            sys.exit(f"racecost: {os.path.basename(exe)} {' '.join(args)} exited "
                     f"{p.returncode}:\n{err.read().decode(errors='replace')[-2000:]}")
        user, system, rss_kb = t.read().split()[-3:]
    return float(user) + float(system), wall, int(rss_kb) / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--size", choices=("race", "small", "default"), default="race")
    ap.add_argument("--only", help="comma-separated benchmark names")
    ap.add_argument("--out")
    opts = ap.parse_args()
    kinds = ("serial", "tsan", "race")
    benchmarks = [(name, program, sizes) for name, program, sizes in suite.BENCHMARKS]
    benchmarks.append(("fib-checked", "fib-checked", {"small": ["35"], "default": ["35"]}))
    if opts.only:
        wanted = opts.only.split(",")
        unknown = set(wanted) - {b[0] for b in benchmarks}
        if unknown:
            sys.exit(f"racecost: no benchmark {', '.join(sorted(unknown))}")
        benchmarks = [b for b in benchmarks if b[0] in wanted]
    rows = []
    head = None
    with tempfile.TemporaryDirectory() as tmp:
        for name, program, sizes in benchmarks:
            if name == "fib-checked":
                args = ["35"]
            elif opts.size == "race":
                args = RACE_SIZES[name]
            else:
                args = sizes[opts.size]
            exes = {}
            for kind in kinds:
                exes[kind] = os.path.join(tmp, f"{program}_{kind}")
                if not os.path.exists(exes[kind]):
                    build(opts.build, tmp, program, kind, exes[kind])
            runs = {k: [] for k in kinds}
            for _ in range(opts.reps):
                for kind in kinds:
                    runs[kind].append(run(exes[kind], args))
            med = {k: tuple(statistics.median(r[i] for r in v) for i in range(3))
                   for k, v in runs.items()}
            if head is None and opts.out:
                head = machine.page_head(exes["race"], args, None, sys.argv[1:])
            rows.append((name, " ".join(args), med))
            print(f"{name} {' '.join(args)}: CPU serial {med['serial'][0]:.3f} s, "
                  f"tsan {med['tsan'][0]:.3f} s, race {med['race'][0]:.3f} s "
                  f"({med['race'][0] / max(med['serial'][0], 1e-9):.1f}x), "
                  f"race max RSS {med['race'][2]:.0f} MiB", file=sys.stderr)
    lines = ["| program | input | serial elision CPU (s) | -fsanitize=thread CPU (s) | "
             "-fws-race CPU (s) | race / serial | race / tsan | -fws-race max RSS (MiB) "
             "| serial max RSS (MiB) |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, args, med in rows:
        s, t, r = med["serial"][0], med["tsan"][0], med["race"][0]
        lines.append(f"| {name} | {args} | {s:.3f} | {t:.3f} | {r:.3f} | "
                     f"{r / max(s, 1e-9):.1f} | {r / max(t, 1e-9):.2f} | "
                     f"{med['race'][2]:.0f} | {med['serial'][2]:.0f} |")
    text = "\n".join(lines) + "\n"
    if opts.out:
        with open(opts.out, "w") as f:
            f.write("# -fws-race: what it costs, per example\n\n"
                    "Written by `examples/harness/racecost.py`.  Inputs: "
                    f"`--size {opts.size}`; medians of {opts.reps} interleaved repetitions "
                    "of each run's CPU time (user + system) and maximum resident set; "
                    "serial elision: clang-19 -O2, tsan: the same with -fsanitize=thread, "
                    "race: ws-clang -fws-race -O2 (one worker: S plays no part).  Load "
                    f"average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}."
                    "\n\n" + head + "\n" + text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
