"""From the runs to the tables: medians per (benchmark, build, workers),
then ratios of medians, geometric means over the suite, and the targets.

One-worker comparisons (T1/T_S, fenced over fence-free at P=1, peers at
P=1) use the CPU time of the timed region, which other processes on a
shared machine do not inflate; everything with more workers, and every
speedup, uses wall time."""

import math
import statistics

from suite import BENCHMARKS, COARSE, FENCE_PAIRS, OURS, PEER_BUILDS, SERIAL, WS_BUILDS


class Above(float):
    """A lower bound: a ratio whose numerator timed out."""


class Cell:
    """The median of one (benchmark, build, workers) in seconds.  A failed
    run leaves no median (bad = "fail"); a timed-out run counts as its
    timeout, which makes the median a lower bound (bad = "timeout"), or
    leaves none where it bounds nothing (its CPU time)."""

    def __init__(self, times, bounds, fails, steal_ratios, steals):
        self.bad = ("fail" if "fail" in fails else "timeout" if fails or bounds else "")
        self.time = None if fails else statistics.median(times + bounds)
        self.steal_ratio = statistics.median(steal_ratios) if steal_ratios else None
        # Steals of a run, for builds that do not count their spawns (only
        # -fws-stats builds do): the ratio then has no denominator.
        self.steals = statistics.median(steals) if steals else None


def cells(rows, metric):
    """{(bench, build, workers): Cell} of one metric, "time_s" (wall) or
    "cpu_s", over the rows of the CSV; rows without a CPU time fall back on
    the wall time.  A timeout bounds the wall time only."""
    groups = {}
    for r in rows:
        key = (r["bench"], r["build"], int(r["workers"]))
        times, bounds, fails, ratios, steals = groups.setdefault(key, ([], [], [], [], []))
        if r["status"] == "ok":
            times.append(float(r.get(metric) or r["time_s"]))
            if r["spawns"] and int(r["spawns"]) > 0:
                ratios.append(int(r["steals"]) / int(r["spawns"]))
            if r["steals"]:
                steals.append(int(r["steals"]))
        elif r["status"] == "timeout" and metric == "time_s":
            bounds.append(float(r["wall_s"]))
        else:
            fails.append(r["status"])
    return {k: Cell(*g) for k, g in groups.items()}


def geomean(xs):
    """Over the exact numbers in xs: missing, failed and bounded entries
    are left out."""
    xs = [x for x in xs if type(x) is float]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def ratio(a, b):
    """Median of cell a over median of cell b: a float; Above when only a
    timed out; None when either was not run; "FAIL" or "TIMEOUT" when there
    is no number to give."""
    if a is None or b is None:
        return None
    if a.bad == "fail" or b.bad == "fail":
        return "FAIL"
    if b.bad:
        return "TIMEOUT"
    return Above(a.time / b.time) if a.bad else a.time / b.time


def fmt(x, digits=2):
    if x is None:
        return "–"
    if isinstance(x, str):
        return x
    return f"{'>' if isinstance(x, Above) else ''}{x:.{digits}f}"


def fmt_cell(c):
    if c is None:
        return "–"
    if c.bad == "fail":
        return "FAIL"
    return f"{'>' if c.bad else ''}{c.time:.4g}"


def md_table(header, body):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


class Summary:
    def __init__(self, rows):
        self.wall = cells(rows, "time_s")
        self.cpu = cells(rows, "cpu_s")
        ran = {r["bench"] for r in rows}
        self.benches = [b for b, _, _ in BENCHMARKS if b in ran]
        self.builds = list(dict.fromkeys(r["build"] for r in rows))
        self.workers = sorted({int(r["workers"]) for r in rows if r["build"] != SERIAL})
        self.ws = [b for b in WS_BUILDS if b in self.builds]
        self.peers = [b for b in PEER_BUILDS if b in self.builds]
        self.pmax = max(self.workers) if self.workers else 1

    def get(self, bench, build, workers, wall=False):
        """The cell of a build (the serial elision has one, at one worker):
        CPU time at one worker unless `wall`, wall time otherwise."""
        c = self.wall if wall or workers > 1 else self.cpu
        return c.get((bench, build, 1 if build == SERIAL else workers))

    def overhead(self, bench, build):
        """T1 / T_S."""
        return ratio(self.get(bench, build, 1), self.get(bench, SERIAL, 1))

    def fence_ratio(self, bench, fenced, free, p):
        return ratio(self.get(bench, fenced, p), self.get(bench, free, p))

    def speedup(self, bench, build, p):
        """T1 / TP of one build against itself, both in wall time (so
        P=1 is exactly 1; get() alone gives the CPU time at one worker)."""
        return ratio(self.get(bench, build, 1, wall=True),
                     self.get(bench, build, p, wall=True))

    def peer_ratio(self, bench, peer, p):
        """TP(peer) / TP(ours): above 1, we are ahead."""
        return ratio(self.get(bench, peer, p), self.get(bench, OURS, p))

    def per_bench(self, cols, value):
        """Rows of `value(bench, col)` per benchmark, plus a geometric mean."""
        body = [[b] + [fmt(value(b, col)) for col in cols] for b in self.benches]
        body.append(["**geomean**"] +
                    [fmt(geomean([value(b, col) for b in self.benches])) for col in cols])
        return body

    def tables(self):
        out = []
        out.append("### Sequential overhead T1/T_S\n\n"
                   "One worker against the serial elision of the same source "
                   "(paper 004 §3); peers against our serial elision.\n")
        cols = self.ws + self.peers
        out.append(md_table(["benchmark"] + cols,
                            self.per_bench(cols, self.overhead)))
        pairs = [(f, g) for f, g in FENCE_PAIRS if f in self.builds and g in self.builds]
        for p in sorted({1, self.pmax}) if pairs else []:
            out.append(f"\n### Fenced over fence-free, T{p}(fenced)/T{p}(fence-free)\n\n"
                       "Above 1: the fence-free variant is faster (paper 000 §8.1).\n")
            out.append(md_table(["benchmark"] + [f"{f}/{g}" for f, g in pairs],
                                self.per_bench(pairs, lambda b, fg, p=p:
                                               self.fence_ratio(b, fg[0], fg[1], p))))
        ps = [p for p in self.workers if p > 1]
        if ps:
            cols = [(b, p) for p in ps for b in self.ws + self.peers]
            out.append("\n### Speedup T1/TP\n\nEach build against its own one-worker run.\n")
            out.append(md_table(["benchmark"] + [f"{b} P={p}" for b, p in cols],
                                self.per_bench(cols, lambda bn, bp:
                                               self.speedup(bn, bp[0], bp[1]))))
        if self.peers and OURS in self.builds:
            cols = [(b, p) for p in self.workers for b in self.peers]
            out.append(f"\n### Peers against ours, TP(peer)/TP({OURS})\n\n"
                       "Above 1: we are ahead.\n")
            benches = [b for b in self.benches
                       if any(self.get(b, peer, 1) for peer in self.peers)]
            body = [[b] + [fmt(self.peer_ratio(b, peer, p)) for peer, p in cols]
                    for b in benches]
            out.append(md_table(["benchmark"] + [f"{b} P={p}" for b, p in cols], body))
        if self.ws and self.pmax > 1:
            at = [self.get(b, v, self.pmax) for b in self.benches for v in self.ws]
            if any(c is not None and c.steal_ratio is not None for c in at):
                out.append(f"\n### Steal ratio steals/spawns at P={self.pmax}\n")
                value = lambda c: c.steal_ratio
                form = "{:.2e}"
            else:
                out.append(f"\n### Steals per run at P={self.pmax}\n\nMedians.  "
                           "The builds do not count their spawns (only `-fws-stats` "
                           "builds do), so the steals stand alone: a variant whose "
                           "thieves rarely succeed shows few.\n")
                value = lambda c: c.steals
                form = "{:.0f}"
            body = []
            for b in self.benches:
                row = [b]
                for v in self.ws:
                    c = self.get(b, v, self.pmax)
                    row.append("–" if c is None or value(c) is None
                               else form.format(value(c)))
                body.append(row)
            out.append(md_table(["benchmark"] + self.ws, body))
        out.append("\n### Medians (seconds)\n\nWall time; the one-worker CPU times "
                   "the ratios above use follow.\n")
        cols = [(SERIAL, 1)] + [(b, p) for p in self.workers for b in self.ws + self.peers]
        body = [[b] + [fmt_cell(self.get(b, build, p, wall=True)) for build, p in cols]
                for b in self.benches]
        out.append(md_table(["benchmark"] + [SERIAL if build == SERIAL else f"{build} P={p}"
                                             for build, p in cols], body))
        out.append("\n")
        cols = [SERIAL] + self.ws + self.peers
        body = [[b] + [fmt_cell(self.get(b, build, 1)) for build in cols]
                for b in self.benches]
        out.append(md_table(["benchmark (CPU, P=1)"] + cols, body))
        return "\n".join(out) + "\n"

    def targets(self):
        """[(what, measured, goal, met)] for the note: None when not measured."""
        t = []

        def add(what, x, goal, ok):
            # A lower bound settles "at least" goals only.
            judged = isinstance(x, float) and (goal.startswith(">") or type(x) is float)
            t.append((what, x, goal, ok(x) if judged else None))

        for fenced, free in [("the", "thep"), ("cl", "ffcl"), ("the_mfence", "thep"),
                             ("cl_mfence", "ffcl")]:
            if fenced in self.builds and free in self.builds:
                x = geomean([self.fence_ratio(b, fenced, free, 1) for b in self.benches])
                add(f"geomean T1({fenced})/T1({free})", x, ">= 1.07", lambda v: v >= 1.07)
        if OURS in self.builds:
            if "fib" in self.benches:
                add(f"T1/T_S fib ({OURS})", self.overhead("fib", OURS), "<= 1.25",
                    lambda v: v <= 1.25)
            for b in self.benches:
                if b in COARSE:
                    add(f"T1/T_S {b} ({OURS})", self.overhead(b, OURS), "<= 1.05",
                        lambda v: v <= 1.05)
            if 2 in self.workers:
                for b in ["fib", "nqueens", "matmul", "uts-geo"]:
                    if b in self.benches:
                        add(f"T1/T2 {b} ({OURS})", self.speedup(b, OURS, 2), ">= 1.8",
                            lambda v: v >= 1.8)
            for b in ["fib", "nqueens", "uts-geo", "uts-bin"]:
                # The closest peer: every peer at every P must be behind.
                rs = [(x, peer, p) for peer in self.peers for p in self.workers
                      if isinstance(x := self.peer_ratio(b, peer, p), float)]
                if rs:
                    x, peer, p = min(rs)
                    add(f"min TP(peer)/TP({OURS}) {b} ({peer} P={p})", x, "> 1",
                        lambda v: v > 1)
        return t

    def targets_table(self):
        if not self.targets():
            return "No build of our runtime in these runs: no targets to check."
        body = [[what, fmt(x), goal, "–" if ok is None else ("met" if ok else "**missed**")]
                for what, x, goal, ok in self.targets()]
        return md_table(["target", "measured", "goal", ""], body)
