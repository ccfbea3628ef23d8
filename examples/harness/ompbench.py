#!/usr/bin/env python3
"""ompbench.py — OpenMP task programs on wsff against libomp and libgomp
(issue 35, docs/results/openmp.md).

The examples that have an OpenMP peer (examples/<name>/peers/<name>_omp.c)
are built by the test build four ways: <name>_serial (the serial elision
of the wsff version, T_S), <name>_omp_wsff (the OpenMP program, ws-clang
-fopenmp -fws-fencefree), <name>_omp_clang (clang-19 -fopenmp, libomp) and
<name>_omp_gcc (gcc -fopenmp, libgomp).  Each is run at the worker counts
given (OMP_NUM_THREADS and WS_NUM_WORKERS), interleaved in a fresh shuffled
order each repetition; the table gives the median of the programs' own
timed region and its ratio to T_S.  A run that fails or times out is
shown as such, never dropped.

usage: ompbench.py [--build DIR] [--reps N] [--workers 1,2] [--only a,b]
                   [--timeout S] [--out FILE]
"""

import argparse
import os
import statistics
import sys

import machine
import runner

ROOT = machine.ROOT
# (benchmark, program, arguments): inputs where the serial elision runs
# 0.05-0.5 s on the 2-vCPU development guest (one-task-per-call fib is
# 40x that under libomp).
PROGRAMS = [
    ("fib", "fib", ["32"]),
    ("nqueens", "nqueens", ["11"]),
    ("quicksort", "quicksort", ["4000000"]),
    ("matmul", "matmul", ["512"]),
    ("skynet", "skynet", ["6"]),
    ("uts-geo", "uts", ["T2"]),
    ("qmatmul", "qmatmul", ["512"]),
]
BUILDS = ["serial", "omp_wsff", "omp_clang", "omp_gcc"]
NAMES = {"serial": "serial elision", "omp_wsff": "wsff (ws-clang -fopenmp -fws-fencefree)",
         "omp_clang": "libomp (clang-19 -fopenmp)", "omp_gcc": "libgomp (gcc-12 -fopenmp)"}


def env_for(workers):
    env = dict(os.environ)
    for var in list(env):
        if var.startswith(("WS_", "OMP_", "KMP_", "GOMP_")):
            env.pop(var)
    env["WS_NUM_WORKERS"] = env["OMP_NUM_THREADS"] = str(workers)
    return env


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--only")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--out")
    a = ap.parse_args()
    bindir = os.path.join(a.build, "examples", "bin")
    workers = [int(w) for w in a.workers.split(",")]
    programs = [p for p in PROGRAMS if not a.only or p[0] in a.only.split(",")]
    if not programs:
        sys.exit(f"ompbench: no program among {a.only}")
    lines = ["| program | input | build | " + " | ".join(f"P={w}: s (x T_S)" for w in workers)
             + " |", "| --- | --- | --- |" + " ---: |" * len(workers)]
    for bench, prog, args in programs:
        configs = []
        for b in BUILDS:
            exe = os.path.join(bindir, f"{prog}_{b}")
            if not os.access(exe, os.X_OK):
                if b == "serial":
                    sys.exit(f"ompbench: {exe} missing (build with -DWSFF_TESTS=ON)")
                continue
            for w in ([1] if b == "serial" else workers):
                configs.append((b, w, exe))
        times = {(b, w): [] for b, w, _ in configs}
        notes = {}
        for _, (b, w, exe) in runner.interleaved(bench, configs, a.reps, seed=35):
            row = runner.run_one(exe, args, env_for(w), a.timeout)
            if row["status"] == "ok":
                times[(b, w)].append(float(row["time_s"]))
            else:
                notes[(b, w)] = row["status"]
        ts = statistics.median(times[("serial", 1)])
        for b in BUILDS:
            if not any(k[0] == b for k in times):
                continue
            cells = []
            for w in workers:
                key = ("serial", 1) if b == "serial" else (b, w)
                if key in notes and not times.get(key):
                    cells.append(notes[key])
                elif b == "serial" and w != workers[0]:
                    cells.append("")
                else:
                    m = statistics.median(times[key])
                    cells.append(f"{m:.3f} ({m / ts:.2f})")
            lines.append(f"| {bench} | {' '.join(args)} | {NAMES[b]} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    if a.out:
        # S as the wsff build resolves it (the default deque, ffmb, trusts
        # none: every steal that may conflict takes the barrier).
        exe = os.path.join(bindir, f"{programs[0][1]}_omp_wsff")
        head = machine.page_head(exe, programs[0][2], None, sys.argv[1:])
        runner.write_report(a.out, "# OpenMP task programs: wsff, libomp, libgomp\n\n" + head +
                            "\nMedians of " + str(a.reps) + " interleaved runs of each "
                            "program's timed region; in parentheses, the ratio to the "
                            "serial elision (T_S).\n\n" + text)
    else:
        print(text)


if __name__ == "__main__":
    main()
