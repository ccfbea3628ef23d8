#!/usr/bin/env python3
"""scaledefault — is the default -fws-scale report right (issue 25)?

For each program, on one worker, the parallelism of its measured region as
  default       the -fws-scale build as it comes (the DAG in IR
                instructions, strands timed by tsc): every run
  path          the same run's work time over the time measured along the
                critical path that the counts chose (the CSV's
                path_span_ns): what a time span without a max looks like
  tsc, cpu      the -fws-scale=time build, WS_SCALE_CLOCK=tsc (the old
                default) and cpu: a span that is a max over timed paths
  instructions  the -fws-scale=instructions build
  analytic      worked out from the program's recursion where it is known
min, median and max of --reps runs (a count gives the same figure every
run).  Then fib(30), the default and the old default, on a quiet machine
and beside two busy processes (one per CPU here): how far the figure moves.

Writes default.md and default.csv (docs/results/scale by default).

  examples/harness/scaledefault.py               # 5 runs each
  examples/harness/scaledefault.py --quick       # small inputs, 2 runs
"""

import argparse
import csv
import functools
import os
import statistics
import subprocess
import sys
import tempfile

import machine
import runner
from scalerun import scale_row

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INPUTS = os.path.join(ROOT, "lit-tests", "scale", "Inputs")


@functools.lru_cache(None)
def matmul_dag(m, n, k, base=32 ** 3):
    """(work, span) in multiply-adds of examples/matmul's recursion."""
    if m * n * k <= base:
        return m * n * k, m * n * k
    if m >= n and m >= k:
        h = m // 2
        a, b = matmul_dag(h, n, k), matmul_dag(m - h, n, k)
        return a[0] + b[0], max(a[1], b[1])
    if n >= k:
        h = n // 2
        a, b = matmul_dag(m, h, k), matmul_dag(m, n - h, k)
        return a[0] + b[0], max(a[1], b[1])
    h = k // 2
    a, b = matmul_dag(m, n, h), matmul_dag(m, n, k - h)
    return a[0] + b[0], a[1] + b[1]


def heat_rows(lo, hi, per_task=32):
    """(work, span) in rows of examples/heat's step_rows."""
    if hi - lo > per_task:
        mid = lo + (hi - lo) // 2
        a, b = heat_rows(lo, mid), heat_rows(mid, hi)
        return a[0] + b[0], max(a[1], b[1])
    return hi - lo, hi - lo


def analytic(name, args):
    if name == "matmul":
        w, s = matmul_dag(*(int(args[0]),) * 3)
        return w / s
    if name == "heat":
        w, s = heat_rows(1, int(args[0]) + 1)
        return w / s
    if name == "tree":
        return float(1 << int(args[0]))
    if name == "chain":
        return 1.0
    return None


def figures(exe, args, region, env, tmp):
    """(parallelism, work/path parallelism or None) of one one-worker run."""
    r = scale_row(exe, args, env, region, tmp, timeout=600)
    par = float(r["parallelism"])
    path = (float(r["work_ns"]) / float(r["path_span_ns"])
            if r.get("path_span_ns") else None)
    return par, path


def spread(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return "—"
    if xs[0] == xs[-1]:
        return f"{xs[0]:.2f}"
    return f"{statistics.median(xs):.2f} ({xs[0]:.2f}–{xs[-1]:.2f})"


def build_input(src, out):
    """A lit input (tree.c, chain.c) in its three ws-scale builds."""
    cc = os.path.join(out, "..", "..", "bin", "ws-clang")
    exes = {}
    for kind, flag in (("scale", "-fws-scale"), ("scale_time", "-fws-scale=time"),
                       ("scale_instr", "-fws-scale=instructions")):
        exe = os.path.join(out, f"{os.path.basename(src)[:-2]}_{kind}")
        subprocess.run([cc, "-fws-fencefree", flag, "-O2", f"-I{INPUTS}", src, "-o", exe],
                       check=True)
        exes[kind] = exe
    return exes


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", help="where default.md goes (default docs/results/scale; "
                    "build/examples/scale-quick with --quick)")
    ap.add_argument("--reps", type=int, help="runs of each time figure (default 5; 2 "
                    "with --quick)")
    ap.add_argument("--quick", action="store_true", help="small inputs, 2 runs")
    a = ap.parse_args(argv)
    reps = a.reps or (2 if a.quick else 5)
    out = a.out or (os.path.join(a.build, "examples", "scale-quick") if a.quick
                    else os.path.join(ROOT, "docs", "results", "scale"))
    os.makedirs(out, exist_ok=True)
    bindir = os.path.join(a.build, "examples", "bin")
    objdir = os.path.join(a.build, "examples", "scale-inputs")
    os.makedirs(objdir, exist_ok=True)

    def example(prog):
        return {k: os.path.join(bindir, f"{prog}_{k}")
                for k in ("scale", "scale_time", "scale_instr")}

    fib30 = ["27"] if a.quick else ["30"]
    jobs = [  # (name shown, analytic key, exes, args, region)
        ("fib(24)", None, example("fib"), ["24"], "timed"),
        (f"fib({fib30[0]})", None, example("fib"), fib30, "timed"),
        ("serial chain", "chain", build_input(os.path.join(INPUTS, "chain.c"), objdir),
         ["16", "20000"], "loop"),
        ("tree, 64 leaves", "tree", build_input(os.path.join(INPUTS, "tree.c"), objdir),
         ["6", "200000"], "tree"),
        ("matmul 300", "matmul", example("matmul"), ["300"], "timed"),
        ("cholesky 300", None, example("cholesky"), ["300"], "timed"),
        ("heat 500 200 20", "heat", example("heat"), ["500", "200", "20"], "timed"),
        ("quicksort 10^6", None, example("quicksort"), ["1000000"], "timed"),
    ]
    if not a.quick:
        jobs.insert(5, ("matmul 768", "matmul", example("matmul"), ["768"], "timed"))
    for _, _, exes, _, _ in jobs:
        for e in exes.values():
            if not os.access(e, os.X_OK):
                sys.exit(f"scaledefault: {e} not built (cmake --build {a.build})")

    base = {k: v for k, v in os.environ.items() if not k.startswith("WS_")}
    modes = [  # (column, build, WS_SCALE_CLOCK)
        ("default", "scale", None),
        ("tsc", "scale_time", "tsc"),
        ("cpu", "scale_time", "cpu"),
        ("instructions", "scale_instr", None),
    ]
    rows, results = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        configs = [(j, m) for j in range(len(jobs)) for m in range(len(modes))]
        for _, (j, m) in runner.interleaved("scaledefault", configs, reps, 1):
            name, _, exes, args, region = jobs[j]
            col, build, clock = modes[m]
            env = dict(base, WS_SCALE_CLOCK=clock) if clock else base
            results.setdefault((j, m), []).append(
                figures(exes[build], args, region, env, tmp))
        # Under load: a busy loop per online CPU, started before and killed
        # after the loaded runs.
        load_rows = []
        fib = example("fib")
        for label, loaded in (("quiet", False), ("two busy processes", True)):
            busy = []
            if loaded:
                busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"])
                        for _ in range(2)]
            try:
                d = [figures(fib["scale"], fib30, "timed", base, tmp)[0]
                     for _ in range(reps)]
                t = [figures(fib["scale_time"], fib30, "timed",
                             dict(base, WS_SCALE_CLOCK="tsc"), tmp)[0]
                     for _ in range(reps)]
            finally:
                for b in busy:
                    b.kill()
                    b.wait()
            load_rows.append((label, d, t))

    for j, (name, key, _, args, _) in enumerate(jobs):
        an = analytic(key, args) if key else None
        row = {"program": name, "analytic": an}
        for m, (col, _, _) in enumerate(modes):
            row[col] = [r[0] for r in results[j, m]]
        row["path"] = [r[1] for r in results[j, 0]]
        rows.append(row)

    with open(os.path.join(out, "default.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program", "figure", "run", "parallelism"])
        for r in rows:
            for col in ("default", "path", "tsc", "cpu", "instructions"):
                for i, x in enumerate(r[col]):
                    w.writerow([r["program"], col, i + 1, f"{x:.4f}"])
            if r["analytic"]:
                w.writerow([r["program"], "analytic", 0, f"{r['analytic']:.4f}"])
        for label, d, t in load_rows:
            for i, x in enumerate(d):
                w.writerow([f"fib({fib30[0]}) {label}", "default", i + 1, f"{x:.4f}"])
            for i, x in enumerate(t):
                w.writerow([f"fib({fib30[0]}) {label}", "tsc", i + 1, f"{x:.4f}"])

    exe0 = example("fib")["scale"]
    s_text = machine.s_line(*machine.resolved_s(exe0, ["20"]))
    text = ("# ws-scale: the default report against the other clocks\n\n"
            + machine.describe(s_text, machine.command(__file__, argv))
            + f"\nParallelism of each program's measured region on one worker, "
            f"median (min–max) of {reps} runs interleaved; a figure without a "
            "range was the same in every run.  `default`: -fws-scale as it "
            "comes; `path`: the same runs' work time over the time measured "
            "along the critical path the counts chose; `tsc`, `cpu`: "
            "-fws-scale=time with that clock (tsc was the default before "
            "issue 25); `instructions`: -fws-scale=instructions; `analytic`: "
            "from the recursion (matmul: multiply-adds, heat: rows).\n\n"
            "| program | default | path | tsc | cpu | instructions | analytic |\n"
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for r in rows:
        an = f"{r['analytic']:.2f}" if r["analytic"] else "—"
        text += (f"| {r['program']} | {spread(r['default'])} | {spread(r['path'])} | "
                 f"{spread(r['tsc'])} | {spread(r['cpu'])} | "
                 f"{spread(r['instructions'])} | {an} |\n")
    q = statistics.median(load_rows[0][1]), statistics.median(load_rows[0][2])
    text += (f"\nfib({fib30[0]}) under load: {reps} runs each, quiet, then beside "
             "two busy processes (`sh -c 'while :; do :; done'`).\n\n"
             "| machine | default | moved | tsc (old default) | moved |\n"
             "| --- | ---: | ---: | ---: | ---: |\n")
    for label, d, t in load_rows:
        md, mt = statistics.median(d), statistics.median(t)
        text += (f"| {label} | {spread(d)} | {100 * (md / q[0] - 1):+.1f}% | "
                 f"{spread(t)} | {100 * (mt / q[1] - 1):+.1f}% |\n")
    runner.write_report(os.path.join(out, "default.md"), text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
