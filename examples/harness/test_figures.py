#!/usr/bin/env python3
"""Checks what a wsbench run drew, from the CSV files the figures are
drawn from (ctest runs it on the quick run's results):

  - every figure was drawn (fig10, overhead, speedup, peers: gnuplot and
    the peers are installed, so none may be missing);
  - speedup at P=1 is exactly 1 for every build (T1/T1 of one cell);
  - every peer that is built appears in speedup.csv and peers.csv;
  - results.md names this machine's CPU and the S the runs used.

  test_figures.py RESULTS_DIR BINDIR
"""

import csv
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import machine  # noqa: E402
from suite import PEER_BUILDS  # noqa: E402

FIGURES = ["fig10", "overhead", "speedup", "peers"]


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    results, bindir = argv
    errors = []
    for name in FIGURES:
        png = os.path.join(results, name + ".png")
        if not os.path.exists(os.path.join(results, name + ".csv")):
            errors.append(f"{name}.csv missing")
        try:
            with open(png, "rb") as f:
                if f.read(8) != b"\x89PNG\r\n\x1a\n":
                    errors.append(f"{name}.png is not a PNG")
        except OSError:
            errors.append(f"{name}.png not drawn")

    built = sorted({b for b in PEER_BUILDS for exe in os.listdir(bindir)
                    if exe.endswith("_" + b)})
    speedup = read_csv(os.path.join(results, "speedup.csv"))
    if not speedup:
        errors.append("speedup.csv has no rows")
    ones = 0
    for row in speedup:
        if row["workers"] != "1":
            continue
        for build, v in row.items():
            if build in ("benchmark", "workers") or math.isnan(float(v)):
                continue
            ones += 1
            if float(v) != 1.0:
                errors.append(f"speedup at P=1 of {build} on {row['benchmark']} is {v}, not 1")
    if ones == 0:
        errors.append("speedup.csv has no value at P=1")
    columns = set(speedup[0]) if speedup else set()
    peer_columns = {c.split(" ")[0] for c in (read_csv(os.path.join(results, "peers.csv"))
                                              or [{}])[0]}
    for peer in built:
        if peer not in columns:
            errors.append(f"{peer} is built but not in speedup.csv")
        if peer not in peer_columns:
            errors.append(f"{peer} is built but not in peers.csv")
    if not built:
        errors.append(f"no peer built in {bindir} (scripts/setup-debian installs "
                      "libomp-19-dev and libtbb-dev)")

    with open(os.path.join(results, "results.md")) as f:
        page = f.read()
    cpu = machine.cpu().split(" (")[0]
    if f"CPU: {cpu}" not in page:
        errors.append(f"results.md does not name the CPU ({cpu})")
    runs_s = {r["S"] for r in read_csv(os.path.join(results, "results.csv")) if r["S"]}
    m = re.search(r"^- S \(the store-buffer bound the runs used\): (\S+), from ", page, re.M)
    if not m or {m.group(1)} != runs_s:
        errors.append(f"results.md does not state the S of the runs ({sorted(runs_s)})")

    for e in errors:
        print(f"test_figures: {e}")
    print(f"test_figures: {len(FIGURES)} figures, {ones} speedups at P=1, peers {built}: "
          + ("ok" if not errors else f"{len(errors)} problems"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
