#!/usr/bin/env python3
"""fibsweep — fib(36..40): the cost of a spawn against the serial elision
(issue 3).

Runs build/examples/bin/fib_<build> for the serial elision and our builds
(default ffmb, thep, ffthe, the, the_mfence) at each n, on one worker and on two,
interleaved (each repetition runs every configuration once, shuffled), and
reports medians as ratios:

  T1/T_S          one worker against the serial elision (same clang -O2)
  the/ffthe       fenced THE over FF-THE, one worker
  T1/T2           speed-up on two workers

One-worker figures use the CPU time of the timed region, two-worker ones
its wall time (docs/benchmarks.md says why).

  examples/harness/fibsweep.py                  # n = 36..40, 5 repetitions
  examples/harness/fibsweep.py --quick          # smoke run
"""

import argparse
import csv
import os
import statistics
import sys

import machine
import runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", help="results (default: docs/results/fibsweep, "
                    "build/examples/fibsweep-quick with --quick)")
    ap.add_argument("--n", help="comma-separated n (default 36,37,38,39,40; 20,22 with --quick)")
    ap.add_argument("--builds", default="ffmb,thep,ffthe,the,the_mfence")
    ap.add_argument("--reps", type=int, help="repetitions (default 5; 1 with --quick)")
    ap.add_argument("--store-buffer", type=int, metavar="S",
                    help="WS_STORE_BUFFER for our builds (default: the runtime's own S)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    try:
        ns = [int(n) for n in (a.n or ("20,22" if a.quick else "36,37,38,39,40")).split(",")]
    except ValueError:
        ap.error(f"--n {a.n}: expected numbers")
    a.reps = a.reps or (1 if a.quick else 5)
    if a.reps < 1 or any(n < 0 or n > 80 for n in ns):
        ap.error("--reps must be positive and n in 0..80")
    if a.out is None:
        a.out = (os.path.join(a.build, "examples", "fibsweep-quick") if a.quick
                 else os.path.join(ROOT, "docs", "results", "fibsweep"))
    os.makedirs(a.out, exist_ok=True)
    bindir = os.path.join(a.build, "examples", "bin")
    builds = a.builds.split(",")
    for b in ["serial"] + builds:
        if not os.access(os.path.join(bindir, f"fib_{b}"), os.X_OK):
            sys.exit(f"fibsweep: {bindir}/fib_{b} not built (cmake --build {a.build})")

    configs = [(n, "serial", 1) for n in ns] + \
              [(n, b, w) for n in ns for b in builds for w in (1, 2)]
    runs = {c: [] for c in configs}
    rows = []
    failed = False
    for rep, (n, b, w) in runner.interleaved("fibsweep", configs, a.reps, a.seed):
        env = {k: v for k, v in os.environ.items() if not k.startswith("WS_")}
        env.update(WS_NUM_WORKERS=str(w), WS_STATS="1")
        if a.store_buffer:
            env["WS_STORE_BUFFER"] = str(a.store_buffer)
        row = runner.run_one(os.path.join(bindir, f"fib_{b}"), [str(n)], env, 600)
        row.update(bench="fib", size=str(n), build=b, workers=w, rep=rep + 1)
        rows.append(row)
        if row["status"] != "ok":
            print(f"\nfibsweep: fib_{b} {n} (workers={w}): {row['note']}", file=sys.stderr)
            failed = True
            continue
        runs[(n, b, w)].append(row)

    with open(os.path.join(a.out, "fibsweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=runner.FIELDS)
        w.writeheader()
        w.writerows(rows)

    def med(n, b, w):
        key = "cpu_s" if w == 1 else "time_s"
        xs = [float(r[key] or r["time_s"]) for r in runs[(n, b, w)]]
        return statistics.median(xs) if xs else float("nan")

    head = ["n", "T_S (s)"] + [f"T1/T_S {b}" for b in builds] + \
           [f"T1/T2 {b}" for b in builds]
    if "the" in builds and "ffthe" in builds:
        head.append("the/ffthe")
    if "the_mfence" in builds and "ffthe" in builds:
        head.append("the_mfence/ffthe")
    body = []
    for n in ns:
        ts = med(n, "serial", 1)
        cells = [str(n), f"{ts:.3f}"]
        cells += [f"{med(n, b, 1) / ts:.2f}" for b in builds]
        cells += [f"{med(n, b, 1) / med(n, b, 2):.2f}" for b in builds]
        if "the" in builds and "ffthe" in builds:
            cells.append(f"{med(n, 'the', 1) / med(n, 'ffthe', 1):.2f}")
        if "the_mfence" in builds and "ffthe" in builds:
            cells.append(f"{med(n, 'the_mfence', 1) / med(n, 'ffthe', 1):.2f}")
        body.append(cells)
    stats = sorted({f"{r['variant']}: S={r['S']} delta={r['delta']} x={r['x']}"
                    for r in rows if r["variant"]})
    described = machine.page_head(os.path.join(bindir, f"fib_{builds[0]}"), ["2"],
                                  a.store_buffer, argv)
    text = "\n".join(
        [f"# fib(n): T1/T_S, fenced against fence-free, T1/T2", "",
         "Written by `examples/harness/fibsweep.py`.  Medians of "
         f"{a.reps} interleaved repetitions; one worker by CPU time, two by wall time.",
         "", described, "Runtime (WS_STATS): " + "; ".join(stats), "",
         "| " + " | ".join(head) + " |", "|" + "---|" * len(head)] +
        ["| " + " | ".join(c) + " |" for c in body]) + "\n"
    runner.write_report(os.path.join(a.out, "fibsweep.md"), text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
