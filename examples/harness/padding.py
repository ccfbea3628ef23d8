#!/usr/bin/env python3
"""padding — what -fws-fencefree-delta=N buys and costs (issue 4).

FF-THE and FF-CL let a thief take a task only when T - delta > h, so a
deque shallower than delta cannot be stolen from at all; fib(n)'s deque is
at most n deep.  Padding the take paths with x extra stores lowers delta =
ceil(S/(x+1)) at the price of those stores on every take.  This script
compiles examples/fib/fib.c for ffthe and ffcl at several target deltas,
runs each build on one worker (the padding's cost, T1) and on two (the
steals it wins, T2), interleaved, and reports medians:

  x, delta        from WS_STATS (the runtime's own S)
  T1/T1(none)     padding cost on one worker
  T1/T2           speed-up on two workers
  steals, aborts  per run at two workers (medians)

  examples/harness/padding.py                       # S from --store-buffer
  examples/harness/padding.py --quick               # smoke run

Compile-time and run-time S must agree for padding to help, so both are
set to --store-buffer (default 113, this development machine's measured S).
"""

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys

import machine
import runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIME_RE = re.compile(r"^time: ([0-9.]+)$", re.M)
STATS_RE = re.compile(r"^ws: variant=(\S+) workers=(\d+) S=(\d+) delta=(\d+) x=(\d+) "
                      r"spawns=(\d+|uncounted) steals=(\d+) aborts=(\d+)", re.M)


def build(a, bindir, variant, target):
    """The fib binary for variant at a target delta (None: no padding)."""
    name = f"fib_{variant}_" + ("none" if target is None else f"d{target}")
    exe = os.path.join(bindir, name)
    cmd = [os.path.join(a.build, "bin", "ws-clang"), f"-fws-fencefree={variant}",
           f"-fws-store-buffer={a.store_buffer}", "-O2",
           os.path.join(ROOT, "examples", "fib", "fib.c"), "-o", exe]
    if target is not None:
        cmd.insert(2, f"-fws-fencefree-delta={target}")
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"padding: {' '.join(cmd)} failed:\n{p.stderr}")
    return exe


def run(a, exe, workers):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WS_")}
    env.update(WS_NUM_WORKERS=str(workers), WS_STATS="1",
               WS_STORE_BUFFER=str(a.store_buffer))
    p = subprocess.run([exe, str(a.n)], env=env, capture_output=True, text=True)
    t, s = TIME_RE.search(p.stdout), STATS_RE.search(p.stderr)
    if p.returncode != 0 or not t or not s:
        sys.exit(f"padding: {exe} {a.n} (workers={workers}) failed, status "
                 f"{p.returncode}:\n{p.stdout}{p.stderr}")
    return {"time": float(t.group(1)), "x": int(s.group(5)), "delta": int(s.group(4)),
            "steals": int(s.group(7)), "aborts": int(s.group(8))}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", help="results (default: docs/results/padding, "
                    "build/examples/padding-quick with --quick)")
    ap.add_argument("--n", type=int, help="fib(n) (default 36; 24 with --quick)")
    ap.add_argument("--reps", type=int, help="repetitions (default 7; 1 with --quick)")
    ap.add_argument("--targets", default="none,32,16,8,4",
                    help="target deltas, 'none' for no padding (default none,32,16,8,4)")
    ap.add_argument("--variants", default="ffthe,ffcl")
    ap.add_argument("--store-buffer", type=int, default=113, metavar="S")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    a.n = a.n or (24 if a.quick else 36)
    a.reps = a.reps or (1 if a.quick else 7)
    try:
        targets = [None if t == "none" else int(t) for t in a.targets.split(",")]
    except ValueError:
        ap.error(f"--targets {a.targets}: expected numbers or 'none'")
    if any(t is not None and t < 1 for t in targets) or a.reps < 1 or a.store_buffer < 1:
        ap.error("--targets, --reps and --store-buffer must be positive")
    if None not in targets:
        targets.insert(0, None)
    if a.out is None:
        a.out = (os.path.join(a.build, "examples", "padding-quick") if a.quick
                 else os.path.join(ROOT, "docs", "results", "padding"))
    os.makedirs(a.out, exist_ok=True)
    bindir = os.path.join(a.build, "examples", "padding-bin")
    os.makedirs(bindir, exist_ok=True)
    exes = {(v, t): build(a, bindir, v, t) for v in a.variants.split(",") for t in targets}

    configs = [(v, t, w) for (v, t) in exes for w in (1, 2)]
    results = {c: [] for c in configs}
    rows = []
    for rep, c in runner.interleaved("padding", configs, a.reps, a.seed):
        r = run(a, exes[c[:2]], c[2])
        results[c].append(r)
        rows.append({"variant": c[0], "target": c[1] or "none", "workers": c[2],
                     "rep": rep + 1, **r})

    with open(os.path.join(a.out, "padding.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)

    # The one claim that is not a timing: padding reaches its target.
    missed = [(v, t, results[(v, t, 1)][0]["delta"]) for (v, t) in exes
              if t is not None and results[(v, t, 1)][0]["delta"] > t]
    for v, t, d in missed:
        print(f"padding: {v} with -fws-fencefree-delta={t} runs with delta={d}",
              file=sys.stderr)

    med = lambda c, k: statistics.median(r[k] for r in results[c])
    lines = [f"# Padding for a target delta: fib({a.n}), S={a.store_buffer}",
             "",
             "Written by `examples/harness/padding.py` (docs/storecount.md). "
             f"Medians of {a.reps} interleaved repetitions; times are fib's own "
             "timing of the computation.  T1/T1(none): what the padding stores "
             "cost on one worker.  T1/T2: the speed-up on two workers.",
             "",
             machine.page_head(exes[(a.variants.split(",")[0], None)], ["2"],
                               a.store_buffer, argv),
             "| variant | target | x | delta | T1 (s) | T1/T1(none) | T2 (s) | T1/T2 "
             "| steals (P=2) | aborts (P=2) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (v, t) in exes:
        c1, c2 = (v, t, 1), (v, t, 2)
        base = med((v, None, 1), "time")
        lines.append(
            f"| {v} | {t or 'none'} | {results[c1][0]['x']} | {results[c1][0]['delta']} "
            f"| {med(c1, 'time'):.3f} | {med(c1, 'time') / base:.2f} "
            f"| {med(c2, 'time'):.3f} | {med(c1, 'time') / med(c2, 'time'):.2f} "
            f"| {med(c2, 'steals'):.0f} | {med(c2, 'aborts'):.0f} |")
    text = "\n".join(lines) + "\n"
    runner.write_report(os.path.join(a.out, "padding.md"), text)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
