#!/usr/bin/env python3
"""reducebench — what a reducer costs: reduce written with a sum reducer
(examples/reduce/reduce_reducer.c) against reduce threading its results
through ws_spawn by hand (reduce.c), issue 17.

Runs build/examples/bin/reduce_serial, reduce_<build> and
reduce_reducer_<build> (default builds: thep, split), and the oneTBB peer
reduce_reducer_tbb (parallel_reduce) where it was built, on one worker and
on two, interleaved (each repetition runs every configuration once,
shuffled), and reports medians as ratios:

  T1/T_S            one worker against the serial elision of reduce
  reducer/hand      the reducer's time over the hand-threaded one's
  T1/T2             speed-up on two workers, each against itself

One-worker figures use the CPU time of the timed region, two-worker ones
its wall time (docs/benchmarks.md says why).

  examples/harness/reducebench.py               # default input, 9 repetitions
  examples/harness/reducebench.py --quick       # smoke run
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
    ap.add_argument("--out", help="results (default: docs/results/reducer, "
                    "build/examples/reducebench-quick with --quick)")
    ap.add_argument("--builds", default="thep,split")
    ap.add_argument("--reps", type=int, help="repetitions (default 9; 1 with --quick)")
    ap.add_argument("--args", help="the programs' input (default: theirs; "
                    "100000 512 4 2 with --quick)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    a.reps = a.reps or (1 if a.quick else 9)
    if a.reps < 1:
        ap.error("--reps must be positive")
    args = (a.args or ("100000 512 4 2" if a.quick else "")).split()
    if a.out is None:
        a.out = (os.path.join(a.build, "examples", "reducebench-quick") if a.quick
                 else os.path.join(ROOT, "docs", "results", "reducer"))
    os.makedirs(a.out, exist_ok=True)
    bindir = os.path.join(a.build, "examples", "bin")
    builds = a.builds.split(",")
    progs = ["reduce_serial"] + [f"{p}_{b}" for b in builds for p in ("reduce", "reduce_reducer")]
    for p in progs:
        if not os.access(os.path.join(bindir, p), os.X_OK):
            sys.exit(f"reducebench: {bindir}/{p} not built (cmake --build {a.build})")
    peer = "reduce_reducer_tbb"
    if os.access(os.path.join(bindir, peer), os.X_OK):
        progs.append(peer)

    configs = [("reduce_serial", 1)] + [(p, w) for p in progs[1:] for w in (1, 2)]
    runs = {c: [] for c in configs}
    rows = []
    failed = False
    for rep, (p, w) in runner.interleaved("reducebench", configs, a.reps, a.seed):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("WS_") and k != "TBB_NUM_THREADS"}
        env.update(WS_NUM_WORKERS=str(w), WS_STATS="1", TBB_NUM_THREADS=str(w))
        row = runner.run_one(os.path.join(bindir, p), args, env, 600)
        row.update(bench=p, size=" ".join(args) or "default", build=p, workers=w,
                   rep=rep + 1)
        rows.append(row)
        if row["status"] != "ok":
            print(f"\nreducebench: {p} (workers={w}): {row['note']}", file=sys.stderr)
            failed = True
            continue
        runs[(p, w)].append(row)

    with open(os.path.join(a.out, "reducer.csv"), "w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=runner.FIELDS)
        out.writeheader()
        out.writerows(rows)

    def med(p, w):
        key = "cpu_s" if w == 1 else "time_s"
        xs = [float(r[key] or r["time_s"]) for r in runs[(p, w)]]
        return statistics.median(xs) if xs else float("nan")

    ts = med("reduce_serial", 1)
    head = ["build", "T1/T_S hand", "T1/T_S reducer", "reducer/hand, 1 worker",
            "T1/T2 hand", "T1/T2 reducer", "reducer/hand, 2 workers"]
    body = []
    for b in builds:
        h, r = f"reduce_{b}", f"reduce_reducer_{b}"
        body.append([b, f"{med(h, 1) / ts:.3f}", f"{med(r, 1) / ts:.3f}",
                     f"{med(r, 1) / med(h, 1):.3f}", f"{med(h, 1) / med(h, 2):.2f}",
                     f"{med(r, 1) / med(r, 2):.2f}", f"{med(r, 2) / med(h, 2):.3f}"])
    if peer in progs:
        t = med(peer, 1)
        body.append(["oneTBB parallel_reduce", "", f"{t / ts:.3f}", "", "",
                     f"{t / med(peer, 2):.2f}", ""])
    load = os.getloadavg()
    described = machine.page_head(os.path.join(bindir, f"reduce_{builds[0]}"), args,
                                  None, argv)
    text = "\n".join(
        ["# reduce: a sum reducer against results threaded by hand", "",
         "Written by `examples/harness/reducebench.py`.  Medians of "
         f"{a.reps} interleaved repetitions; one worker by CPU time, two by wall "
         f"time.  T_S = {ts:.3f} s.  Load average at the end: "
         f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}.  The oneTBB row (where "
         "built) has its parallel_reduce in the reducer columns, with "
         "TBB_NUM_THREADS = workers.", "", described, "",
         "| " + " | ".join(head) + " |", "|" + "---|" * len(head)] +
        ["| " + " | ".join(c) + " |" for c in body]) + "\n"
    runner.write_report(os.path.join(a.out, "reducer.md"), text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
