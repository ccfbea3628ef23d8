#!/usr/bin/env python3
"""scaleplot — the speedup ws-scale predicts against the speedup measured
(issue 16; docs/scale.md).

For each benchmark, its ws-scale build runs on one worker and reports the
work, span and burdened span of the timed region (a ws-scale region that
examples/common/bench.h opens around it), once per clock asked for
(default: instructions, and the thread's CPU time for the programs with a
cut-off; docs/scale.md says why); the figures do not depend on the
schedule.  The plain build of THEP (<prog>_thep,
the deque of the pages in docs/results/scale*) then runs on every worker count, interleaved (each
repetition runs every configuration once, shuffled), and the median of its
timed region gives the measured speedup T1/TP.  Predictions on P workers:

  bound      min(P, work / span)                       (the span law)
  estimate   work / ((work - b) / P + b), b = burdened span   (Brent)

Writes scale.csv (one row per benchmark, clock and P), scale.md, and with
gnuplot scale.png (measured points, the two predictions as lines).

  examples/harness/scaleplot.py                    # 7 programs, 1 and 2 workers
  examples/harness/scaleplot.py --quick            # small inputs, once
  examples/harness/scaleplot.py --workers 1,2,4,8,16 --reps 5
  examples/harness/scaleplot.py --program ./prog_scale ./prog -- ARGS
      any program: its ws-scale build and its plain build, whole-program
      figures (or --region R), measured by the process's wall time
"""

import argparse
import csv
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import machine
from scalerun import scale_row
import runner
import suite

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The programs of docs/benchmarks.md's parallelism table, and the inputs the
# figures are taken on: the suite's default where an instrumented run stays
# within minutes, smaller for the programs with a spawn per call.
PROGRAMS = {
    "fib": ["36"],
    "nqueens": ["12"],
    "uts-geo": None,  # the suite's default (T2)
    "uts-bin": None,  # T3
    "matmul": None,
    "cholesky": None,
    "heat": None,
    "quicksort": None,
}
# "default" is the -fws-scale report as it comes (the DAG in instructions,
# times by tsc); the others are WS_SCALE_CLOCK on a -fws-scale=time build,
# or on the -fws-scale=instructions build.
CLOCKS = ("default", "tsc", "wall", "cpu", "instructions")


def estimate(work, bspan, p):
    if work <= 0:
        return 1.0
    b = min(bspan, work)
    return work / ((work - b) / p + b)


def bound(work, span, p):
    return min(p, work / span) if span > 0 else p


def scale_figures(exe, args, env, clock, region, tmp):
    """(work, span, burdened span, spawns) of `region` in one run of the
    ws-scale build `exe`, on one worker, measured with `clock`."""
    env = dict(env)
    env.pop("WS_STATS", None)
    env.pop("WS_SCALE_CLOCK", None)
    if clock not in ("instructions", "default"):
        env["WS_SCALE_CLOCK"] = clock
    r = scale_row(exe, args, env, region, tmp,
                  f"{os.path.basename(exe)}.{clock}.csv")
    if clock == "default":  # the times, in the DAG's proportions
        return (float(r["work_ns"]), float(r["span_ns"]),
                float(r["burdened_span_ns"]), int(r["spawns"]))
    return (float(r["work"]), float(r["span"]),
            float(r["burdened_span"]), int(r["spawns"]))


def median_figures(exe, args, env, clock, region, tmp, reps):
    """The run with the median parallelism of `reps` (a time clock is noisy;
    the instruction count is not, and runs once)."""
    runs = [scale_figures(exe, args, env, clock, region, tmp)
            for _ in range(1 if clock in ("instructions", "default") else reps)]
    runs.sort(key=lambda f: f[0] / f[1] if f[1] else math.inf)
    return runs[len(runs) // 2]


def timed_run(exe, args, env):
    """The program's own timed region (a "time:" line), else the process's
    wall time."""
    t0 = time.monotonic()
    p = subprocess.run([exe] + args, env=env, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{exe} {' '.join(args)}: exit {p.returncode}: "
                           f"{p.stderr.strip()[-300:]}")
    m = runner.TIME_RE.search(p.stdout)
    return float(m.group(1)) if m else wall


def draw(path, results, workers):
    """One panel per benchmark: measured speedup, and each clock's estimate
    and bound."""
    if not shutil.which("gnuplot"):
        return "no gnuplot (apt-get install gnuplot-nox): no figure"
    benches = list(dict.fromkeys(r["bench"] for r in results))
    cols = min(4, len(benches))
    rows = math.ceil(len(benches) / cols)
    pmax = max(workers)
    parts = [f"set terminal pngcairo size {380 * cols},{320 * rows} font ',9' noenhanced",
             f"set output '{path}'",
             f"set multiplot layout {rows},{cols} title 'Speedup: predicted by ws-scale "
             "against measured (thep, medians)'",
             "set key bottom right font ',7'", "set grid", "set xtics 1",
             f"set xrange [1:{pmax}]", "set yrange [0:*]", "set xlabel 'workers'"]
    for i, b in enumerate(benches):
        mine = [r for r in results if r["bench"] == b]
        clocks = list(dict.fromkeys(r["clock"] for r in mine))
        lines = [f"$m{i} << EOD"]
        lines += [f"{p} {r['measured']:.4f}" for p in workers
                  for r in mine if r["clock"] == clocks[0] and r["P"] == p
                  and isinstance(r["measured"], float)]
        lines.append("EOD")
        plots = []
        for j, c in enumerate(clocks):
            lines.append(f"$p{i}_{j} << EOD")
            lines += [f"{r['P']} {r['estimate']:.4f} {r['bound']:.4f}"
                      for r in mine if r["clock"] == c]
            lines.append("EOD")
            plots.append(f"$p{i}_{j} using 1:3 with lines dt 2 lw 2 title 'bound ({c})'")
            plots.append(f"$p{i}_{j} using 1:2 with lines lw 2 title 'estimate ({c})'")
        plots.append(f"$m{i} using 1:2 with points pt 7 ps 1.2 title 'measured'")
        plots.append("x with lines dt 3 lc rgb 'gray' title 'ideal'")
        parts += lines + [f"set title '{b}'", "plot " + ", ".join(plots)]
    parts.append("unset multiplot")
    p = subprocess.run(["gnuplot"], input="\n".join(parts), text=True,
                       capture_output=True)
    return p.stderr.strip() or None


def report(results, workers, header):
    """scale.md: per benchmark and clock, the figures and, per P, the two
    predictions and the measured speedup."""
    lines = [header, "",
             "| program | clock | work | span | parallelism | burdened par. | spawns | "
             + " | ".join(f"P={p}: estimate / bound / measured" for p in workers) + " |",
             "|---|---|---|---|---|---|---|" + "---|" * len(workers)]
    seen = set()
    for r in results:
        key = (r["bench"], r["clock"])
        if key in seen:
            continue
        seen.add(key)
        unit = "instr" if r["clock"] == "instructions" else "ms"
        div = 1e6
        cells = []
        for p in workers:
            q = next(x for x in results if (x["bench"], x["clock"], x["P"]) == key + (p,))
            meas = f"{q['measured']:.2f}" if isinstance(q["measured"], float) else "-"
            cells.append(f"{q['estimate']:.2f} / {q['bound']:.2f} / {meas}")
        lines.append(
            f"| {r['bench']} | {r['clock']} | {r['work'] / div:.1f} M{unit} | "
            f"{r['span'] / div:.3f} M{unit} | {r['parallelism']:.0f} | "
            f"{r['burdened_parallelism']:.0f} | {r['spawns']} | " + " | ".join(cells) + " |")
    return "\n".join(lines).replace("Mms", "ms") + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", help="results (default: docs/results/scale, "
                    "build/examples/scale-quick with --quick)")
    ap.add_argument("--workers", help="comma-separated worker counts (default 1,2)")
    ap.add_argument("--reps", type=int, help="repetitions of the measured runs "
                    "(default 5; 1 with --quick)")
    ap.add_argument("--scale-reps", type=int, default=3,
                    help="runs of a time clock's measurement, the median kept (default 3)")
    ap.add_argument("--clocks", default="auto",
                    help=f"clocks to measure with, of {', '.join(CLOCKS)}, and auto "
                    "(the default): the -fws-scale report as it comes; e.g. "
                    "auto,cpu,instructions to compare")
    ap.add_argument("--burden", type=int, help="WS_SCALE_BURDEN, in the clock's unit")
    ap.add_argument("--quick", action="store_true", help="small inputs, once")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--program", nargs=2, metavar=("SCALE_BIN", "PLAIN_BIN"),
                    help="measure one program instead of the suite")
    ap.add_argument("--region", default=None,
                    help="the region to predict (default: timed for the suite, "
                    "<program> with --program)")
    ap.add_argument("benches", nargs="*", help="suite benchmarks (default: "
                    + ", ".join(PROGRAMS) + "); with --program, its arguments after --")
    a = ap.parse_args(argv)
    workers = [int(p) for p in (a.workers or "1,2").split(",")]
    clocks = a.clocks.split(",")
    if any(c not in CLOCKS + ("auto",) for c in clocks) or any(p < 1 for p in workers):
        ap.error(f"--clocks: {', '.join(CLOCKS)}; --workers: positive counts")
    if 1 not in workers:
        workers = [1] + workers  # T1 is the measured baseline
    a.reps = a.reps or (1 if a.quick else 5)
    if a.out is None:
        a.out = (os.path.join(a.build, "examples", "scale-quick") if a.quick
                 else os.path.join(ROOT, "docs", "results", "scale"))
    os.makedirs(a.out, exist_ok=True)

    # (bench, scale build for the time clocks, for instructions, plain build, args, env)
    jobs = []
    if a.program:
        region = a.region or "<program>"
        scale_exe, plain = a.program
        mine = [c for c in clocks if c != "auto"] or ["default"]
        jobs.append((os.path.basename(plain), {c: scale_exe for c in mine}, plain,
                     a.benches, dict(os.environ), mine))
    else:
        region = a.region or "timed"
        bindir = os.path.join(a.build, "examples", "bin")
        table = {b: (prog, sizes) for b, prog, sizes in suite.BENCHMARKS}
        for b in a.benches or list(PROGRAMS):
            if b not in table:
                ap.error(f"unknown benchmark {b} (known: {', '.join(table)})")
            prog, sizes = table[b]
            args = sizes["small"] if a.quick else (PROGRAMS.get(b) or sizes["default"])
            mine = list(dict.fromkeys(
                x for c in clocks for x in (["default"] if c == "auto" else [c])))
            build = {"default": "scale", "instructions": "scale_instr"}
            exes = {c: os.path.join(bindir, f"{prog}_{build.get(c, 'scale_time')}")
                    for c in mine}
            plain = os.path.join(bindir, f"{prog}_thep")
            missing = [e for e in list(exes.values()) + [plain]
                       if not os.access(e, os.X_OK)]
            if missing:
                sys.exit(f"scaleplot: {missing[0]} not built (cmake --build {a.build})")
            jobs.append((b, exes, plain, args, suite.env_for(b, "thep", 1), mine))

    results = []
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        figures = {}
        for bench, exes, plain, args, env, mine in jobs:
            if a.burden is not None:
                env = dict(env, WS_SCALE_BURDEN=str(a.burden))
            for c in mine:
                exe = exes[c]
                print(f"scaleplot: {bench}: ws-scale, clock {c}", file=sys.stderr)
                figures[bench, c] = median_figures(exe, args, env, c, region, tmp,
                                                   a.scale_reps)
        times = {}
        configs = [(job, p) for job in jobs for p in workers]
        for _, (job, p) in runner.interleaved("scaleplot", configs, a.reps, a.seed):
            bench, _, plain, args, env, _ = job
            env = dict(env, WS_NUM_WORKERS=str(p))
            times.setdefault((bench, p), []).append(timed_run(plain, args, env))
    for bench, *_, mine in jobs:
        t1 = statistics.median(times[bench, 1])
        for c in mine:
            work, span, bspan, spawns = figures[bench, c]
            for p in workers:
                results.append({
                    "bench": bench, "clock": c, "P": p, "work": work, "span": span,
                    "burdened_span": bspan, "spawns": spawns,
                    "parallelism": work / span if span else math.inf,
                    "burdened_parallelism": work / bspan if bspan else math.inf,
                    "estimate": estimate(work, bspan, p), "bound": bound(work, span, p),
                    "measured": t1 / statistics.median(times[bench, p]),
                    "median_time_s": statistics.median(times[bench, p]),
                })

    fields = ["bench", "clock", "P", "work", "span", "burdened_span", "spawns",
              "parallelism", "burdened_parallelism", "estimate", "bound",
              "measured", "median_time_s"]
    with open(os.path.join(a.out, "scale.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(results)
    load = f"{load0[0]:.2f} at the start, {os.getloadavg()[0]:.2f} at the end"
    _, _, plain0, args0, _, _ = jobs[0]
    s_text = machine.s_line(*machine.resolved_s(plain0, args0))
    header = ("# ws-scale: predicted against measured speedup\n\n"
              + machine.describe(s_text, machine.command(__file__, argv))
              + f"- Load average (1 min): {load}\n"
              + f"\nMeasured: the thep build, medians of {a.reps} interleaved runs; "
              "predicted: one ws-scale run per clock on one worker "
              f"(a time clock: the median of {a.scale_reps}).  `default` is the "
              "-fws-scale report as it comes: parallelism from IR instructions, "
              "work timed by tsc, span = work / parallelism.  Work and span in ms, "
              "or in millions of IR instructions.")
    text = report(results, workers, header)
    note = draw(os.path.join(a.out, "scale.png"), results, workers)
    if note:
        text += f"\n{note}\n"
    else:
        text += "\n![predicted against measured speedup](scale.png)\n"
    runner.write_report(os.path.join(a.out, "scale.md"), text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
