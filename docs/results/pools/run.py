#!/usr/bin/env python3
"""Runs the task-pool benchmarks and writes graphs.csv, prodcons.csv and
results.md next to this script.

    docs/results/pools/run.py [--build build] [--reps 10] [--quick]

ws-graphs runs every variant on one input in one process, repetitions
interleaved (rep 1 of every variant, then rep 2, ...), and checks every run
against a serial BFS.  ws-prodcons does the same for each producer/consumer
mix.  Times are reported as medians normalised to cl, with the 10th and 90th
percentiles of the variant's runs over cl's median (paper 000 §8, Fig. 11).
"""
import argparse
import csv
import io
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

GRAPH_VARIANTS = "cl,ffcl,idem-lifo,idem-fifo,the,ffthe,thep,salsa,salsa-cas,msq"
PRODCONS_VARIANTS = "salsa,salsa-cas,cl,ffcl,msq"
# Sizes that take 0.5-1 s per run (cl, 2 threads) on the quiet 2-vCPU
# development machine.  The torus stays at 2048 x 2048 (0.2 s): a larger
# one outgrows the 2^21 tasks a queue holds (idem-fifo's anchor packs head,
# size and tag into 64 bits; traverse.c sizes every variant's queues alike).
GRAPHS = [
    ("kregular", ["--graph", "kregular", "--n", "4194304", "--k", "16"]),
    ("random", ["--graph", "random", "--n", "4194304", "--m", "16777216"]),
    ("torus", ["--graph", "torus", "--n", "2048"]),
]
MIXES = [(1, 1), (2, 2), (1, 3)]
PRODCONS_TASKS = 16_000_000


def run(cmd, env):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        sys.exit(f"{cmd[0]} failed ({p.returncode}):\n{p.stderr}")
    return p.stdout, p.stderr


def percentile(xs, q):
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def median(xs):
    return percentile(xs, 0.5)


def machine(env, build):
    """CPU model, cores, and the S/delta the runtime resolved."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    e = dict(env, WS_STATS="1")
    _, err = run([os.path.join(build, "bin", "ws-prodcons"), "--producers", "1",
                  "--consumers", "1", "--tasks", "1000", "--reps", "1",
                  "--variants", "ffcl"], e)
    sd = next((l for l in err.splitlines() if l.startswith("ws: variant=")), "")
    fields = dict(kv.split("=", 1) for kv in sd.split()[1:] if "=" in kv)
    return (f"{model}, {os.cpu_count()} logical CPUs ({platform.machine()}); "
            f"S={fields.get('S', '?')} delta={fields.get('delta', '?')} "
            f"(x={fields.get('x', '?')}, S from {fields.get('S_from', '?')})")


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def graphs_table(rows):
    out = ["| graph | algo | variant | median s | time / cl | p10 / cl | p90 / cl "
           "| stolen % | repeats |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    keys = []
    for r in rows:
        k = (r["graph"], r["algo"])
        if k not in keys:
            keys.append(k)
    summary = {}
    for g, a in keys:
        sel = [r for r in rows if r["graph"] == g and r["algo"] == a]
        variants = []
        for r in sel:
            if r["variant"] not in variants:
                variants.append(r["variant"])
        base = median([float(r["seconds"]) for r in sel if r["variant"] == "cl"])
        for v in variants:
            vs = [r for r in sel if r["variant"] == v]
            t = [float(r["seconds"]) for r in vs]
            stolen = median([100.0 * int(r["stolen"]) / int(r["tasks"]) for r in vs])
            rep = median([int(r["tasks"]) - int(r["reached"]) for r in vs])
            summary[(g, a, v)] = median(t) / base
            out.append(f"| {g} | {a} | {v} | {median(t):.3f} | {median(t) / base:.2f} "
                       f"| {percentile(t, 0.1) / base:.2f} | {percentile(t, 0.9) / base:.2f} "
                       f"| {stolen:.2f} | {rep:.0f} |")
    return out, summary


def geomean(xs):
    p = 1.0
    for x in xs:
        p *= x
    return p ** (1.0 / len(xs))


def prodcons_table(rows):
    out = ["| producers/consumers | variant | median Mtasks/s | p10 | p90 | vs cl "
           "| stolen tasks | chunk steals |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    mixes = []
    for r in rows:
        k = (r["producers"], r["consumers"])
        if k not in mixes:
            mixes.append(k)
    for p, c in mixes:
        sel = [r for r in rows if (r["producers"], r["consumers"]) == (p, c)]
        variants = []
        for r in sel:
            if r["variant"] not in variants:
                variants.append(r["variant"])
        base = median([float(r["tasks_per_s"]) for r in sel if r["variant"] == "cl"])
        for v in variants:
            vs = [r for r in sel if r["variant"] == v]
            tp = [float(r["tasks_per_s"]) / 1e6 for r in vs]
            out.append(f"| {p}/{c} | {v} | {median(tp):.1f} | {percentile(tp, 0.1):.1f} "
                       f"| {percentile(tp, 0.9):.1f} | {median(tp) * 1e6 / base:.2f} "
                       f"| {median([int(r['stolen']) for r in vs]):.0f} "
                       f"| {median([int(r['chunk_steals']) for r in vs]):.0f} |")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--quick", action="store_true",
                    help="small inputs, 2 repetitions: checks the script")
    args = ap.parse_args()
    # The spawn/sync runtime starts in libws's constructor: keep its idle
    # workers from competing with the pool's threads.
    env = dict(os.environ, WS_NUM_WORKERS="1")
    reps = 2 if args.quick else args.reps
    graphs = GRAPHS if not args.quick else [
        ("kregular", ["--graph", "kregular", "--n", "65536", "--k", "16"]),
        ("random", ["--graph", "random", "--n", "65536", "--m", "262144"]),
        ("torus", ["--graph", "torus", "--n", "256"])]
    ptasks = PRODCONS_TASKS if not args.quick else 200_000

    header = machine(env, args.build)
    load_before = loadavg()
    grows = []
    for _, opts in graphs:
        out, _ = run([os.path.join(args.build, "bin", "ws-graphs"), *opts, "--algo", "both",
                      "--variants", GRAPH_VARIANTS, "--reps", str(reps), "--threads", "2"],
                     env)
        grows += list(csv.DictReader(io.StringIO(out)))
    prows = []
    for p, c in MIXES:
        out, _ = run([os.path.join(args.build, "bin", "ws-prodcons"), "--producers", str(p),
                      "--consumers", str(c), "--tasks", str(ptasks), "--variants",
                      PRODCONS_VARIANTS, "--reps", str(reps)], env)
        prows += list(csv.DictReader(io.StringIO(out)))

    load_after = loadavg()
    dest = HERE if not args.quick else os.path.join(args.build, "pool-results")
    os.makedirs(dest, exist_ok=True)
    for name, rows in (("graphs.csv", grows), ("prodcons.csv", prows)):
        with open(os.path.join(dest, name), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
    gt, summary = graphs_table(grows)
    lines = [
        "# Task pools: measured results",
        "",
        "Produced by `docs/results/pools/run.py` (raw runs: `graphs.csv`, "
        "`prodcons.csv`).",
        "",
        f"**Machine: {header}.**  On the 2-vCPU development VM every figure comes from 2 threads (the graph runs) or 2-4 threads "
        "on 2 cores (producer/consumer mixes above 1/1 are oversubscribed), and "
        "only the ratios of runs interleaved in one process mean anything.  "
        f"Load average (1 min) when the runs began: {load_before}; when they "
        f"ended: {load_after}.",
        "",
        f"## Transitive closure (tc) and spanning tree (st), 2 threads, {reps} runs each",
        "",
        "Time / cl: median over cl's median (paper 000 Fig. 11a).  p10, p90: the "
        "variant's 10th and 90th percentile over cl's median.  Stolen %: tasks "
        "a worker got by stealing, of all tasks run (Fig. 11b; for SALSA a "
        "stolen chunk counts once).  Repeats: visits beyond one per reached "
        "vertex (racing test-and-set in tc, and the idempotent queues' "
        "duplicates).",
        "",
        *gt,
        "",
        "Geometric mean of time / cl over the six graph-algorithm pairs:",
        "",
        "| variant | time / cl |",
        "|---|---:|",
    ]
    for v in GRAPH_VARIANTS.split(","):
        xs = [x for (g, a, vv), x in summary.items() if vv == v]
        if xs:
            lines.append(f"| {v} | {geomean(xs):.2f} |")
    lines += [
        "",
        f"## Producers and consumers, {ptasks} tasks, {reps} runs each",
        "",
        "Throughput from the start signal to the last consumer's stop "
        "(paper 002 §6.3); p10/p90 are percentiles of the runs.",
        "",
        *prodcons_table(prows),
        "",
    ]
    with open(os.path.join(dest, "results.md"), "w") as f:
        f.write("\n".join(lines))
    print(os.path.join(dest, "results.md"))


if __name__ == "__main__":
    main()
