"""The figures, drawn by gnuplot (Debian: gnuplot-nox).  Each figure's
numbers are written first to a CSV of the same name (fig10.csv for
fig10.png, ...), and gnuplot draws from that file, so what a test or a
reader checks in the CSV is what the figure shows."""

import csv
import math
import os
import shutil
import subprocess

from suite import OURS, PEER_BUILDS, WS_BUILDS

# One colour per build in every figure.  A fenced build and its mfence
# twin share a hue (dark, light); no two builds are alike, which
# test_summary checks (gnuplot's default cycle has eight colours, so the
# ninth build, private, came out in the first one's, the's).
COLOURS = {
    "the": "#1f4e9c", "the_mfence": "#8fb3e8",
    "cl": "#1b7a3a", "cl_mfence": "#98d69a",
    "ffthe": "#e07b00", "ffcl": "#f2c14e",
    "thep": "#d62728", "ffmb": "#17becf", "split": "#7b3fa0", "private": "#8c5a2b",
    "omp_clang": "#222222", "omp_gcc": "#8a8a8a", "tbb": "#e377c2",
}


def _colour(build):
    """A build's colour; a peer column of peers.csv ("tbb P=2") takes its
    peer's."""
    return COLOURS[build.split(" ")[0]]


def _num(x):
    if isinstance(x, float):
        return f"{x:.4f}"
    return str(x) if isinstance(x, int) else "NaN"


def write_csv(path, header, rows):
    """Rows of (label, numbers...); a ratio that is not a number (missing,
    FAIL) is NaN, which gnuplot leaves out."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow([r[0]] + [_num(x) for x in r[1:]])


def _histogram(png, data, title, ylabel, builds, log=False):
    """Clustered bars from a CSV: one cluster per row, one bar per column,
    the key outside the plot.  A peer's bars at more than one worker are
    hatched (peers.csv has a column per peer and worker count)."""
    def fill(column):
        hatched = " P=" in column and not column.endswith(" P=1")
        return "pattern 2 border -1" if hatched else "solid 0.9 border -1"

    bars = [f"'{data}' using {i + 2}:xtic(1) title columnheader({i + 2}) "
            f"lc rgb '{_colour(b)}' fs {fill(b)}" for i, b in enumerate(builds)]
    return "\n".join([
        "set terminal pngcairo size 1400,560 font ',10' noenhanced",
        f"set output '{png}'",
        "set datafile separator ','",
        f"set title '{title}'",
        f"set ylabel '{ylabel}'",
        "set style data histograms",
        "set style histogram clustered gap 1",
        "set key outside right top vertical",
        "set xtics rotate by -30",
        "set grid ytics",
        "set logscale y 2" if log else "set yrange [0:*]",
        "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'black'",
        "plot " + ", ".join(bars),
    ])


def _line_style(build):
    """Peers dashed, so that they read apart from our builds."""
    dash = "dt 2" if build in PEER_BUILDS else "dt 1"
    return f"lc rgb '{_colour(build)}' {dash} lw 1.5"


def _speedup(png, data, s, builds):
    """One panel per benchmark, T1/TP against P, and one more panel that
    holds only the key, so that no key covers a curve."""
    benches = s.benches
    cols = min(4, len(benches) + 1)
    rows = math.ceil((len(benches) + 1) / cols)
    parts = [f"set terminal pngcairo size {360 * cols},{300 * rows} font ',9' noenhanced",
             f"set output '{png}'",
             "set datafile separator ','",
             f"set multiplot layout {rows},{cols} title 'Speedup T1/TP (medians)'",
             "unset key", "set grid",
             f"set xrange [1:{s.pmax}]", "set xtics 1", "set yrange [0:*]",
             "set xlabel 'workers'"]
    for b in benches:
        # Column j + 3 of the CSV is builds[j]; rows of other benchmarks
        # are NaN here, which ends no line (they are not between this
        # benchmark's rows).
        plots = [f"'{data}' using 2:(strcol(1) eq '{b}' ? column({j + 3}) : NaN) "
                 f"with linespoints pt 7 ps 0.6 {_line_style(build)}"
                 for j, build in enumerate(builds)]
        plots.append("x with lines dt 3 lc rgb 'gray'")
        parts += [f"set title '{b}'", "plot " + ", ".join(plots)]
    parts += ["unset title", "unset border", "unset tics", "unset grid", "unset xlabel",
              "set key center center vertical font ',10'", "set yrange [0:1]",
              "plot " + ", ".join(
                  [f"NaN with linespoints pt 7 {_line_style(b)} title '{b}'" for b in builds]
                  + ["NaN with lines dt 3 lc rgb 'gray' title 'ideal'"]),
              "unset multiplot"]
    return "\n".join(parts)


def draw(s, outdir):
    """Writes fig10, overhead, speedup and peers (.csv and .png) where the
    runs have what they need; returns the PNGs' names, or why there are
    none."""
    if not s.ws:
        return "no build of our runtime in these runs: no figures"
    figures = []  # (png, gnuplot script)

    def csv_path(name):
        return os.path.join(outdir, name)

    base = "the" if "the" in s.ws else s.ws[0]
    rows = [[b] + [s.fence_ratio(b, v, base, s.pmax) for v in s.ws] for b in s.benches]
    write_csv(csv_path("fig10.csv"), ["benchmark"] + s.ws, rows)
    figures.append(("fig10.png", _histogram(
        csv_path("fig10.png"), csv_path("fig10.csv"),
        f"Run time at P={s.pmax}, normalised to {base} (cf. paper 000 Fig. 10)",
        f"T{s.pmax}(variant) / T{s.pmax}({base})", s.ws)))

    rows = [[b] + [s.overhead(b, v) for v in s.ws] for b in s.benches]
    write_csv(csv_path("overhead.csv"), ["benchmark"] + s.ws, rows)
    figures.append(("overhead.png", _histogram(
        csv_path("overhead.png"), csv_path("overhead.csv"),
        "Sequential overhead T1/T_S (paper 004 §3)", "T1 / T_S", s.ws)))

    if len(s.workers) > 1:
        builds = [b for b in [OURS, "the", "cl", "split", "private"] if b in s.ws] + s.peers
        rows = [[b, p] + [s.speedup(b, build, p) for build in builds]
                for b in s.benches for p in s.workers]
        write_csv(csv_path("speedup.csv"), ["benchmark", "workers"] + builds, rows)
        figures.append(("speedup.png", _speedup(
            csv_path("speedup.png"), csv_path("speedup.csv"), s, builds)))

    if s.peers and OURS in s.ws:
        cols = [(peer, p) for peer in s.peers for p in s.workers]
        benches = [b for b in s.benches if any(s.get(b, peer, 1) for peer in s.peers)]
        rows = [[b] + [s.peer_ratio(b, peer, p) for peer, p in cols] for b in benches]
        names = [f"{peer} P={p}" for peer, p in cols]
        write_csv(csv_path("peers.csv"), ["benchmark"] + names, rows)
        figures.append(("peers.png", _histogram(
            csv_path("peers.png"), csv_path("peers.csv"),
            f"Peers against {OURS}: TP(peer) / TP({OURS}), above 1 we are ahead",
            f"TP(peer) / TP({OURS}) (log scale)", names, log=True)))

    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        return ("no gnuplot (scripts/setup-debian installs gnuplot-nox): no figures; "
                "their numbers are in " + ", ".join(
                    n.replace(".png", ".csv") for n, _ in figures))
    drawn = []
    for name, script in figures:
        p = subprocess.run([gnuplot], input=script, text=True, capture_output=True)
        if p.returncode != 0:
            raise RuntimeError(f"gnuplot failed on {name}: {p.stderr.strip()}")
        drawn.append(name)
    return drawn
