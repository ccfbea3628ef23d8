#!/usr/bin/env python3
"""racecost.py — what -fws-race costs, per example program (docs/race.md).

For every benchmark of the suite at its small (ctest) size it builds three
programs and times them, interleaved, several repetitions, medians:

  serial   the serial elision, clang-19 -O2 (T_S)
  tsan     the serial elision under plain ThreadSanitizer (-fsanitize=thread)
  race     ws-clang -fws-race -O2 (determinacy races, libws_race)

and prints a markdown table of the medians and of race/serial and
race/tsan.  A race build that reports a race, or any build that fails,
is an error: the examples are race-free.

usage: racecost.py [--build DIR] [--reps N] [--out FILE]
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


def build(build_dir, program, kind, out):
    src = os.path.join(ROOT, "examples", program, program + ".c")
    libs = LIBS.get(program, [])
    if kind == "race":
        cmd = [os.path.join(build_dir, "bin", "ws-clang"), "-fws-race"] + FLAGS
    else:
        cmd = ["clang-19", "-I" + os.path.join(ROOT, "runtime", "include")] + FLAGS
        if kind == "tsan":
            cmd.append("-fsanitize=thread")
    subprocess.run(cmd + [src, "-o", out] + libs, check=True)


def run(exe, args):
    start = time.perf_counter()
    p = subprocess.run([exe] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    seconds = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"racecost: {os.path.basename(exe)} {' '.join(args)} exited "
                 f"{p.returncode}:\n{p.stderr[-2000:]}")
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out")
    opts = ap.parse_args()
    kinds = ("serial", "tsan", "race")
    rows = []
    head = None
    with tempfile.TemporaryDirectory() as tmp:
        for name, program, sizes in suite.BENCHMARKS:
            args = sizes["small"]
            exes = {}
            for kind in kinds:
                exes[kind] = os.path.join(tmp, f"{program}_{kind}")
                if not os.path.exists(exes[kind]):
                    build(opts.build, program, kind, exes[kind])
            times = {k: [] for k in kinds}
            for _ in range(opts.reps):
                for kind in kinds:
                    times[kind].append(run(exes[kind], args))
            med = {k: statistics.median(v) for k, v in times.items()}
            if head is None and opts.out:
                head = machine.page_head(exes["race"], args, None, sys.argv[1:])
            rows.append((name, " ".join(args), med))
            print(f"{name}: serial {med['serial']:.3f} s, tsan {med['tsan']:.3f} s, "
                  f"race {med['race']:.3f} s", file=sys.stderr)
    lines = ["| program | input | serial elision (s) | -fsanitize=thread (s) | "
             "-fws-race (s) | race / serial | race / tsan |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, args, med in rows:
        lines.append(f"| {name} | {args} | {med['serial']:.3f} | {med['tsan']:.3f} | "
                     f"{med['race']:.3f} | {med['race'] / med['serial']:.1f} | "
                     f"{med['race'] / med['tsan']:.2f} |")
    text = "\n".join(lines) + "\n"
    if opts.out:
        with open(opts.out, "w") as f:
            f.write("# -fws-race: what it costs, per example\n\n"
                    f"Written by `examples/harness/racecost.py`.  Small (ctest) inputs, "
                    f"medians of {opts.reps} interleaved repetitions; serial elision: "
                    "clang-19 -O2, tsan: the same with -fsanitize=thread, race: ws-clang "
                    "-fws-race -O2 (one worker: S plays no part).  Load average at the "
                    f"end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}.\n\n"
                    + head + "\n" + text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
