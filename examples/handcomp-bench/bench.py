#!/usr/bin/env python3
"""Hand-lowered fib on every deque variant, 1 and 2 workers, against its
serial elision; libws (xchg) and libws_mfence builds.

Every repetition runs every configuration once, in a fresh random order
(interleaved), and the table reports medians and their ratios:

  T1/Ts        overhead of the variant on one worker over the serial code
  T1/T2        speed-up from one to two workers
  the/ffthe, cl/ffcl   fenced T1 over fence-free T1 (> 1: fence-free faster)

Times come from the programs themselves (the computation, without the
runtime's start-up and shutdown).  Absolute times on a shared machine are
noise; read the ratios, and the spread column, which says how far apart
the fastest and slowest run of a configuration were.
"""
import argparse
import os
import random
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "harness"))
import variants  # noqa: E402  (examples/harness: the rows of ws/variants.def)

VARIANTS = variants.names()
FENCES = [("xchg", ""), ("mfence", "_mfence")]
LINE = re.compile(r"^fib\((\d+)\) = (\d+) time_s=([0-9.]+)$")


def run(binary, n, workers):
    env = {k: v for k, v in os.environ.items() if not k.startswith("WS_")}
    env["WS_NUM_WORKERS"] = str(workers)
    out = subprocess.run([binary, str(n)], env=env, capture_output=True,
                         text=True, check=False)
    m = LINE.match(out.stdout.strip())
    if out.returncode != 0 or not m:
        sys.exit(f"bench: {binary} (workers={workers}) failed with status "
                 f"{out.returncode}:\n{out.stdout}{out.stderr}")
    return int(m.group(2)), float(m.group(3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin-dir", required=True,
                    help="build directory of examples/handcomp-bench")
    ap.add_argument("--n", type=int, default=36, help="fib(N) (default 36)")
    ap.add_argument("--reps", type=int, default=7,
                    help="repetitions of every configuration (default 7)")
    ap.add_argument("--seed", type=int, default=1, help="order shuffling seed")
    args = ap.parse_args()
    if args.reps < 5:
        sys.exit("bench: --reps must be at least 5 for a meaningful median")

    configs = [("serial", "", "serial", 1)]
    for fence, suffix in FENCES:
        for v in VARIANTS:
            for w in (1, 2):
                configs.append((fence, suffix, v, w))

    def binary(cfg):
        fence, suffix, v, _ = cfg
        name = "fib_serial" if v == "serial" else f"fib_{v}{suffix}"
        return os.path.join(args.bin_dir, name)

    missing = [binary(c) for c in configs if not os.access(binary(c), os.X_OK)]
    if missing:
        sys.exit("bench: not built: " + ", ".join(missing))

    rng = random.Random(args.seed)
    times = {c: [] for c in configs}
    want = None
    load0 = os.getloadavg()[0]
    for rep in range(args.reps):
        order = configs[:]
        rng.shuffle(order)
        for cfg in order:
            result, t = run(binary(cfg), args.n, cfg[3])
            if want is None:
                want = result
            if result != want:
                sys.exit(f"bench: {binary(cfg)} computed {result}, "
                         f"expected {want}")
            times[cfg].append(t)
        print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)
    load1 = os.getloadavg()[0]

    med = {c: statistics.median(ts) for c, ts in times.items()}
    spread = {c: (max(ts) - min(ts)) / med[c] for c, ts in times.items()}
    ts = med[configs[0]]
    print(f"fib({args.n}), {args.reps} interleaved repetitions, medians; "
          f"default S and delta; load average {load0:.2f} -> {load1:.2f}")
    print(f"T_serial = {ts:.4f} s (spread {spread[configs[0]]:.0%})")
    print()
    print(f"{'fence':7} {'variant':8} {'T1 s':>8} {'T2 s':>8} "
          f"{'T1/Ts':>7} {'T1/T2':>7} {'spread1':>8} {'spread2':>8}")
    for fence, suffix in FENCES:
        for v in VARIANTS:
            c1, c2 = (fence, suffix, v, 1), (fence, suffix, v, 2)
            print(f"{fence:7} {v:8} {med[c1]:8.4f} {med[c2]:8.4f} "
                  f"{med[c1] / ts:7.2f} {med[c1] / med[c2]:7.2f} "
                  f"{spread[c1]:8.0%} {spread[c2]:8.0%}")
    print()
    print("fenced T1 / fence-free T1 (> 1: fence-free faster)")
    print(f"{'':12} " + " ".join(f"{f:>7}" for f, _ in FENCES))
    for fenced, free in (("the", "ffthe"), ("cl", "ffcl")):
        ratios = [med[(f, s, fenced, 1)] / med[(f, s, free, 1)]
                  for f, s in FENCES]
        print(f"{fenced + '/' + free:12} " +
              " ".join(f"{r:7.2f}" for r in ratios))


if __name__ == "__main__":
    main()
