"""The figures, drawn by gnuplot (Debian: gnuplot-nox) from inline data."""

import math
import shutil
import subprocess

from suite import OURS


def _num(x):
    return f"{x:.4f}" if isinstance(x, float) else "NaN"


def _datablock(name, rows, header=None):
    """Rows of (label, numbers...), a label an int (an x value) or a string
    (a tic label); a header line when given (histograms take their key from
    it)."""
    lines = [f"${name} << EOD"]
    if header:
        lines.append(" ".join(f'"{h}"' for h in header))
    lines += [" ".join([str(r[0]) if isinstance(r[0], int) else f'"{r[0]}"'] +
                       [_num(x) for x in r[1:]]) for r in rows]
    return "\n".join(lines + ["EOD"])


def _histogram(out, title, ylabel, header, rows):
    """Clustered bars: one cluster per row, one bar per column."""
    ncol = len(header) - 1
    return "\n".join([
        _datablock("d", rows, header),
        "set terminal pngcairo size 1400,560 font ',10' noenhanced",
        f"set output '{out}'",
        f"set title '{title}'",
        f"set ylabel '{ylabel}'",
        "set style data histograms",
        "set style histogram clustered gap 1",
        "set style fill solid 0.85 border -1",
        "set key outside right top vertical",
        "set xtics rotate by -30",
        "set grid ytics",
        "set yrange [0:*]",
        "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'black'",
        f"plot for [i=2:{ncol + 1}] $d using i:xtic(1) title columnheader(i)",
    ])


def _speedup(out, s, builds):
    benches = s.benches
    cols = min(4, len(benches))
    rows = math.ceil(len(benches) / cols)
    parts = [f"set terminal pngcairo size {360 * cols},{300 * rows} font ',9' noenhanced",
             f"set output '{out}'",
             f"set multiplot layout {rows},{cols} title 'Speedup T1/TP (medians)'",
             "set key top left font ',7'", "set grid",
             f"set xrange [1:{s.pmax}]", "set xtics 1", "set yrange [0:*]",
             "set xlabel 'workers'"]
    for i, b in enumerate(benches):
        mine = [build for build in builds
                if any(isinstance(s.speedup(b, build, p), float) for p in s.workers)]
        data = [[p] + [s.speedup(b, build, p) for build in mine] for p in s.workers]
        parts.append(_datablock(f"s{i}", data))
        plots = [f"$s{i} using 1:{j + 2} with linespoints title '{build}'"
                 for j, build in enumerate(mine)]
        plots.append("x with lines dt 2 lc rgb 'gray' title 'ideal'")
        parts += [f"set title '{b}'", "plot " + ", ".join(plots)]
    parts.append("unset multiplot")
    return "\n".join(parts)


def draw(s, outdir):
    """Writes fig10.png, overhead.png and speedup.png; returns their names,
    or why there are none."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        return "no gnuplot (apt-get install gnuplot-nox): no figures"
    if not s.ws:
        return "no build of our runtime in these runs: no figures"
    scripts = []
    base = "the" if "the" in s.ws else s.ws[0]
    rows = [[b] + [s.fence_ratio(b, v, base, s.pmax) for v in s.ws] for b in s.benches]
    scripts.append(("fig10.png", _histogram(
        f"{outdir}/fig10.png",
        f"Run time at P={s.pmax}, normalised to {base} (cf. paper 000 Fig. 10)",
        f"T{s.pmax}(variant) / T{s.pmax}({base})", ["benchmark"] + s.ws, rows)))
    rows = [[b] + [s.overhead(b, v) for v in s.ws] for b in s.benches]
    scripts.append(("overhead.png", _histogram(
        f"{outdir}/overhead.png", "Sequential overhead T1/T_S (paper 004 §3)",
        "T1 / T_S", ["benchmark"] + s.ws, rows)))
    if len(s.workers) > 1:
        builds = [b for b in [OURS, "the", "cl", "split", "private"] if b in s.ws] + s.peers
        scripts.append(("speedup.png", _speedup(f"{outdir}/speedup.png", s, builds)))
    drawn = []
    for name, script in scripts:
        p = subprocess.run([gnuplot], input=script, text=True, capture_output=True)
        if p.returncode != 0:
            raise RuntimeError(f"gnuplot failed on {name}: {p.stderr.strip()}")
        drawn.append(name)
    return drawn
