#!/usr/bin/env python3
"""reducebench — what a reducer costs: reduce written with a sum reducer
(examples/reduce/reduce_reducer.c) against reduce threading its results
through ws_spawn by hand (reduce.c), issue 17.

Runs build/examples/bin/reduce_serial, reduce_<build> and
reduce_reducer_<build> (default builds: ffmb, thep, split), and the oneTBB peer
reduce_reducer_tbb (parallel_reduce) where it was built, on one worker and
on two, interleaved (each repetition runs every configuration once,
shuffled), and reports medians as ratios:

  T1/T_S            one worker against the serial elision of reduce
  reducer/hand      the reducer's time over the hand-threaded one's: the
                    median of each repetition's own ratio (both ran in it),
                    so a machine whose speed drifts between repetitions
                    cancels out
  T1/T2             speed-up on two workers, each against itself
  +instr/chunk      what a reducer update costs in instructions, one worker
                    (valgrind --tool=callgrind, 65,536 one-element chunks,
                    reducer minus hand over the chunks run; omitted when
                    valgrind is missing or with --no-instructions)

One-worker figures use the CPU time of the timed region, two-worker ones
its wall time (docs/benchmarks.md says why).

  examples/harness/reducebench.py               # default input, 9 repetitions
  examples/harness/reducebench.py --quick       # smoke run
"""

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import machine
import runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", help="results (default: docs/results/reducer, "
                    "build/examples/reducebench-quick with --quick)")
    ap.add_argument("--builds", default="ffmb,thep,split")
    ap.add_argument("--reps", type=int, help="repetitions (default 9; 1 with --quick)")
    ap.add_argument("--args", help="the programs' input (default: theirs; "
                    "100000 512 4 2 with --quick)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-instructions", action="store_true",
                    help="skip the callgrind count of instructions per chunk")
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

    def paired(h, r, w):
        """Median over repetitions of r's time over h's in the same one."""
        key = "cpu_s" if w == 1 else "time_s"
        by = {}
        for row in runs[(h, w)] + runs[(r, w)]:
            by.setdefault(row["rep"], {})[row["bench"]] = float(row[key] or row["time_s"])
        xs = [v[r] / v[h] for v in by.values() if h in v and r in v]
        return statistics.median(xs) if xs else float("nan")

    ts = med("reduce_serial", 1)
    head = ["build", "T1/T_S hand", "T1/T_S reducer", "reducer/hand, 1 worker",
            "T1/T2 hand", "T1/T2 reducer", "reducer/hand, 2 workers"]
    count = not a.no_instructions and shutil.which("valgrind")
    if count:
        head.append("+instr/chunk")
    body = []
    for b in builds:
        h, r = f"reduce_{b}", f"reduce_reducer_{b}"
        body.append([b, f"{med(h, 1) / ts:.3f}", f"{med(r, 1) / ts:.3f}",
                     f"{paired(h, r, 1):.3f}", f"{med(h, 1) / med(h, 2):.2f}",
                     f"{med(r, 1) / med(r, 2):.2f}", f"{paired(h, r, 2):.3f}"])
        if count:
            body[-1].append(f"{per_chunk(bindir, h, r):.1f}")
    if peer in progs:
        t = med(peer, 1)
        body.append(["oneTBB parallel_reduce", "", f"{t / ts:.3f}", "", "",
                     f"{t / med(peer, 2):.2f}", ""] + ([""] if count else []))
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
         "TBB_NUM_THREADS = workers."
         + (f"  +instr/chunk: callgrind of `{' '.join(COUNT_ARGS)}` (n, chunks, passes, rounds), {COUNT_CHUNKS:,} chunks run." if count else ""),
         "", described, "",
         "| " + " | ".join(head) + " |", "|" + "---|" * len(head)] +
        ["| " + " | ".join(c) + " |" for c in body]) + "\n"
    runner.write_report(os.path.join(a.out, "reducer.md"), text)
    return 1 if failed else 0


# One-element chunks, so that the update is not lost in the chunk's work:
# n, chunks, passes, rounds.
COUNT_ARGS = ["65536", "65536", "4", "1"]
COUNT_CHUNKS = 65536 * 4


def instructions(exe):
    with tempfile.TemporaryDirectory() as d:
        env = {k: v for k, v in os.environ.items() if not k.startswith("WS_")}
        env.update(WS_NUM_WORKERS="1")
        p = subprocess.run(["valgrind", "--tool=callgrind",
                            f"--callgrind-out-file={d}/cg"] + [exe] + COUNT_ARGS,
                           env=env, capture_output=True, text=True, timeout=600)
    for line in p.stderr.splitlines():
        if "Collected :" in line and p.returncode == 0:
            return int(line.split()[-1])
    sys.exit(f"reducebench: callgrind {exe} failed:\n{p.stderr[-2000:]}")


def per_chunk(bindir, hand, reducer):
    """Instructions a chunk costs with the reducer over by hand."""
    return (instructions(os.path.join(bindir, reducer)) -
            instructions(os.path.join(bindir, hand))) / COUNT_CHUNKS


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
