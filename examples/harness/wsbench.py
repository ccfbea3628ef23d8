#!/usr/bin/env python3
"""wsbench — the benchmark suite side by side with its peers.

Runs every benchmark x build (serial elision, every deque variant of
runtime/include/ws/variants.def, the mfence builds of the fenced ones,
OpenMP with libomp and libgomp, oneTBB) x worker count, interleaved: each
repetition runs every configuration once, in a shuffled order, so that
drift of a shared machine spreads over all of them.  Writes results.csv
(every run), results.md (medians, ratios, the targets) and PNG figures.

  examples/harness/wsbench.py                 full run into docs/results/
  examples/harness/wsbench.py --quick         smoke run: small inputs, once
  examples/harness/wsbench.py --summarize docs/results/results.csv

Exits 1 when a run failed (a wrong result, a crash).  A run that times
out counts as its timeout, a lower bound ("> x" in the tables).
"""

import argparse
import csv
import os
import random
import sys
import time

import machine
import plots
import runner
import summary
import suite

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="the CMake build directory (default: build/)")
    ap.add_argument("--out", help="where results go (default: docs/results/, "
                    "or build/examples/quick-results with --quick)")
    ap.add_argument("--size", choices=suite.SIZES, help="inputs (default: default)")
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: small inputs, one repetition")
    ap.add_argument("--reps", type=int, help="repetitions (default 5; 1 with --quick)")
    ap.add_argument("--workers", help="worker counts, e.g. 1,2,4 (default: 1, 2, "
                    "powers of two up to the CPUs, and the CPUs)")
    ap.add_argument("--bench", help="benchmarks to run, comma-separated (default: all)")
    ap.add_argument("--builds", help="builds to run, comma-separated (default: all "
                    "found; the serial elision always runs)")
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds before a run is killed; a configuration that "
                    "times out is not run again (default 120)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the run order")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="SECONDS",
                    help="before each run, wait up to SECONDS for the other processes "
                    "of a shared machine to leave the CPUs idle (default 0: do not "
                    "wait); the busy CPUs seen go to the busy_cpus column")
    ap.add_argument("--store-buffer", type=int, metavar="S",
                    help="WS_STORE_BUFFER for our builds, e.g. the S "
                    "ws-calibrate saved (default: the runtime resolves S itself)")
    ap.add_argument("--summarize", metavar="CSV",
                    help="only redo the tables and figures from a CSV")
    a = ap.parse_args(argv)
    a.size = a.size or ("small" if a.quick else "default")
    a.reps = a.reps or (1 if a.quick else 5)
    if a.reps < 1 or a.timeout <= 0 or (a.store_buffer is not None and a.store_buffer < 1):
        ap.error("--reps, --timeout and --store-buffer must be positive")
    if a.wait_idle < 0:
        ap.error("--wait-idle must not be negative")
    if a.workers:
        try:
            a.workers = sorted({int(w) for w in a.workers.split(",")})
        except ValueError:
            ap.error(f"--workers {a.workers}: expected numbers, e.g. 1,2,4")
        if a.workers[0] < 1:
            ap.error("--workers: counts start at 1")
    else:
        n = os.cpu_count() or 1
        a.workers = sorted({1, n} | {1 << k for k in range(1, n.bit_length()) if 1 << k <= n})
    if a.out is None:
        a.out = (os.path.dirname(os.path.abspath(a.summarize)) if a.summarize else
                 os.path.join(a.build, "examples", "quick-results") if a.quick else
                 os.path.join(ROOT, "docs", "results"))
    return a


def plan(a):
    """The benchmarks found and, per repetition, the configurations to run."""
    bindir = os.path.join(a.build, "examples", "bin")
    names = set(a.bench.split(",")) if a.bench else set()
    unknown = names - {b for b, _, _ in suite.BENCHMARKS}
    if unknown:
        sys.exit(f"wsbench: unknown benchmark(s) {', '.join(sorted(unknown))}")
    found = suite.discover(bindir, names)
    if not found:
        sys.exit(f"wsbench: no examples built in {bindir}: run cmake --build first")
    keep = None
    if a.builds:
        keep = set(a.builds.split(",")) | {suite.SERIAL}
        unknown = keep - set([suite.SERIAL] + suite.WS_BUILDS + suite.PEER_BUILDS)
        if unknown:
            sys.exit(f"wsbench: unknown build(s) {', '.join(sorted(unknown))}")
    configs = []
    for bench, prog, sizes, builds in found:
        for build in builds:
            if keep and build not in keep:
                continue
            for w in [1] if build == suite.SERIAL else a.workers:
                configs.append((bench, prog, sizes[a.size], build, w))
    return bindir, found, configs


def progress(i, total, t0, text):
    elapsed = time.monotonic() - t0
    eta = elapsed / i * (total - i)
    line = f"[{i}/{total}] {text}  elapsed {elapsed / 60:.0f}m, eta {eta / 60:.0f}m"
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + line)
    else:
        sys.stderr.write(line + "\n")
    sys.stderr.flush()


def run(a, csv_path):
    bindir, found, configs = plan(a)
    total = len(configs) * a.reps
    print(f"wsbench: {len(found)} benchmarks, {len(configs)} configurations, "
          f"{a.reps} repetitions, {a.size} inputs, workers {a.workers}", file=sys.stderr)
    timed_out = set()
    t0, i = time.monotonic(), 0
    with open(csv_path, "w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=runner.FIELDS)
        out.writeheader()
        for rep in range(1, a.reps + 1):
            order = configs[:]
            random.Random(a.seed * 1000 + rep).shuffle(order)
            for bench, prog, args, build, w in order:
                i += 1
                key = (bench, build, w)
                if key in timed_out:
                    continue
                busy = runner.wait_idle(a.wait_idle) if a.wait_idle else None
                row = runner.run_one(os.path.join(bindir, f"{prog}_{build}"), args,
                                     suite.env_for(bench, build, w, a.store_buffer),
                                     a.timeout)
                row.update(bench=bench, size=a.size, build=build, workers=w, rep=rep)
                if busy is not None:
                    row["busy_cpus"] = f"{busy:.2f}"
                out.writerow(row)
                f.flush()
                if row["status"] == "timeout":
                    timed_out.add(key)
                shown = row["time_s"] + " s" if row["status"] == "ok" else row["status"]
                progress(i, total, t0, f"rep {rep} {bench} {build} P={w}: {shown}")
    if sys.stderr.isatty():
        sys.stderr.write("\n")


def write_machine(a, argv, csv_path):
    """machine.md next to the CSV: the CPU, the S the runs use, the
    software and the command, taken now, before the runs, so that a later
    --summarize describes the machine that ran them, not its own."""
    _, found, _ = plan(a)
    bench, prog, sizes, builds = found[0]
    ours = [b for b in builds if suite.kind(b) == "ws"]
    if ours:
        exe = os.path.join(a.build, "examples", "bin", f"{prog}_{ours[0]}")
        s_text = machine.s_line(*machine.resolved_s(exe, sizes["small"], a.store_buffer))
    else:
        s_text = "S: none (no build of our runtime in these runs)"
    text = machine.describe(s_text, machine.command(__file__, argv))
    with open(os.path.join(os.path.dirname(csv_path), "machine.md"), "w") as f:
        f.write(text)


def report(a, csv_path):
    """Writes results.md and the figures; returns the number of failed
    runs."""
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"wsbench: {csv_path} has no runs")
    try:
        with open(os.path.join(os.path.dirname(csv_path), "machine.md")) as f:
            described = f.read()
    except OSError:
        described = (f"- CPU and S: not recorded (no machine.md next to {csv_path}; "
                     "the harness writes it with every run)\n")
    s = summary.Summary(rows)
    figures = plots.draw(s, a.out)
    reps = max(int(r["rep"]) for r in rows)
    sizes = sorted({r["size"] for r in rows})
    bad = [r for r in rows if r["status"] != "ok"]
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write("# wsff benchmark results\n\n")
        f.write("Written by `examples/harness/wsbench.py` (see docs/benchmarks.md) "
                "from the runs in results.csv; the command below runs them again "
                "and rewrites this page, its CSV files and its figures.\n\n")
        f.write(described + "\n")
        f.write(f"Every figure is a **median of {reps} interleaved runs** "
                f"({', '.join(sizes)} inputs; each repetition runs every configuration "
                "once, in a shuffled order), and comparisons are ratios of medians. "
                "Times are the programs' own timing of the computation, without "
                "set-up and verification: one-worker comparisons (T1/T_S, P=1 "
                "ratios) use its CPU time, which other processes on a shared machine "
                "do not inflate; runs with more workers, and speedups, use wall "
                "time.  Absolute times from a shared machine are noise; ratios from "
                "runs side by side are the result.\n\n")
        waited = [r for r in rows if r.get("busy_cpus")]
        if waited:
            busy = [r for r in waited if float(r["busy_cpus"]) >= runner.IDLE_CPUS]
            f.write(f"Each run waited for the other processes to leave the CPUs idle "
                    f"(`--wait-idle`); {len(busy)} of {len(waited)} started with "
                    f"{runner.IDLE_CPUS} CPUs or more busy after the wait (the busy_cpus "
                    "column of results.csv).\n\n")
        ours = [r for r in rows if r["S"]]
        if ours:
            by = {}
            for r in ours:
                by.setdefault(f"S={r['S']} delta={r['delta']} x={r['x']}", set()).add(r["build"])
            f.write("Our runtime as WS_STATS reported it: " + "; ".join(
                f"{k} ({', '.join(sorted(v))})" for k, v in sorted(by.items())) + ".\n\n")
        if bad:
            f.write(f"{len(bad)} runs failed or timed out (see the note column of "
                    "results.csv).  A failed run leaves its cell FAIL; a run killed "
                    f"after the timeout counts as the timeout, so its cell and the ratios "
                    "above it read \"> x\", a lower bound, and a configuration that "
                    "timed out once is not run again.\n\n")
        f.write("## Targets\n\n" + s.targets_table() + "\n\n")
        f.write("## Tables\n\n" + s.tables() + "\n")
        if isinstance(figures, str):
            f.write(f"## Figures\n\n{figures.capitalize()}.\n")
        else:
            f.write("## Figures\n\nEach is drawn from the CSV of the same name "
                    "(" + ", ".join(n.replace(".png", ".csv") for n in figures) + ").\n\n"
                    + "".join(f"![{n}]({n})\n\n" for n in figures))
    print(f"wsbench: wrote {a.out}/results.md" +
          (f" ({figures})" if isinstance(figures, str) else f" and {', '.join(figures)}"),
          file=sys.stderr)
    for r in bad:
        print(f"wsbench: {r['bench']} {r['build']} P={r['workers']} rep {r['rep']}: "
              f"{r['status']}: {r['note']}", file=sys.stderr)
    return sum(r["status"] == "fail" for r in bad)


def main(argv):
    a = parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    csv_path = a.summarize or os.path.join(a.out, "results.csv")
    if not a.summarize:
        write_machine(a, argv, csv_path)
        run(a, csv_path)
    return 1 if report(a, csv_path) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
