#!/usr/bin/env python3
"""Run ws-scale programs and compare their figures with the analytic ones.

usage: ws-scale-check.py [--workers 1,2,4] [--tolerance 0.10] [--low L]
                         [--same-work 0.01] [--only R1,R2] [--best-of K]
                         [--env K=V ...] BINARY... [-- ARGS...]

Each program prints what its figures must be; the figures come from the
CSV it writes at exit (WS_SCALE_OUT, one file per run).  For each run:

  "analytic: <region> <parallelism>"  ->
      <binary> workers=<n> <region>: parallelism <measured> analytic <a> ok
    (FAIL instead of ok when measured/analytic is outside [L, 1 + tolerance],
    L = 1 - tolerance unless --low is given);
  "nested: <outer> <inner>..."  ->
      <binary> workers=<n> <outer> = <inner> + ...: work ok, span ok
    (each within 2% of the inner regions' sum: nothing is lost or counted
    twice where regions nest);
  "count: <region> <n>"  ->  <binary> workers=<n> <region>: count <c> ok

and a line with FAIL when a run fails or its CSV lacks a region; when
nothing failed, a last line "ws-scale-check: all <n> checks ok" counts the
lines above (a test can check that every program and worker count was
checked without knowing how many variants there are).  With
--same-work F, the work of a region must also be within F of the work the
first run of the same binary measured (the figures do not depend on the
schedule).  --only checks those regions alone.  Runs have WS_STATS=1: a
line ends with the run's steals.

--best-of K runs each binary and worker count K times and checks the
largest parallelism of a region: with a time clock, noise can only lengthen
the strands on a path, and the span is the longest path, so a noisy run
reads less parallelism, never (beyond the tolerance) more.  Exits 1 if anything
failed.
"""
import csv
import os
import re
import subprocess
import sys
import tempfile


def rows_of(path):
    """{region: row} of the CSV's P = 1 rows."""
    with open(path, newline="") as f:
        return {r["region"]: r for r in csv.DictReader(f) if r["workers"] == "1"}


def main(argv):
    workers, tol, low, same_work, only, best_of = [1, 2, 4], 0.10, None, None, None, 1
    extra_env, binaries, args = {}, [], []
    it = iter(argv)
    for a in it:
        if a == "--workers":
            workers = [int(n) for n in next(it).split(",")]
        elif a == "--tolerance":
            tol = float(next(it))
        elif a == "--low":
            low = float(next(it))
        elif a == "--same-work":
            same_work = float(next(it))
        elif a == "--only":
            only = next(it).split(",")
        elif a == "--best-of":
            best_of = int(next(it))
        elif a == "--env":
            k, v = next(it).split("=", 1)
            extra_env[k] = v
        elif a == "--":
            args = list(it)
        else:
            binaries.append(a)
    low = 1 - tol if low is None else low
    status = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for b in binaries:
            name = os.path.basename(b)
            first_work = {}
            for n in workers:
                runs = []
                for k in range(best_of):
                    out = os.path.join(tmp, f"{name}.{n}.{k}.csv")
                    env = dict(os.environ, WS_NUM_WORKERS=str(n), WS_SCALE_OUT=out,
                               WS_STATS="1", **extra_env)
                    p = subprocess.run([b] + args, env=env, capture_output=True,
                                       text=True, timeout=300)
                    if p.returncode != 0:
                        break
                    runs.append(rows_of(out))
                if p.returncode != 0:
                    print(f"{name} workers={n}: FAIL exit {p.returncode}: "
                          f"{p.stderr.strip()[-300:]}")
                    status = 1
                    continue
                figures = runs[0]
                m = re.search(r"^ws: variant=.* steals=(\d+)", p.stderr, re.M)
                steals = f" (steals {m.group(1)})" if m else ""
                for line in p.stdout.splitlines():
                    what, _, rest = line.partition(": ")
                    words = rest.split()
                    if what not in ("analytic", "nested", "count"):
                        continue
                    if only and words[0] not in only:
                        continue
                    missing = [w for w in words[:1 if what != "nested" else None]
                               if w not in figures]
                    if missing:
                        print(f"{name} workers={n} {missing[0]}: FAIL no such row")
                        status = 1
                        continue
                    if what == "nested":
                        outer, inner = figures[words[0]], [figures[w] for w in words[1:]]
                        verdicts = []
                        for col in ("work", "span"):
                            total = sum(float(r[col]) for r in inner)
                            good = abs(float(outer[col]) - total) <= 0.02 * total
                            verdicts.append(f"{col} {'ok' if good else 'FAIL'}")
                            status |= not good
                        checked += 1
                        print(f"{name} workers={n} {words[0]} = {' + '.join(words[1:])}: "
                              + ", ".join(verdicts))
                        continue
                    if what == "count":
                        got = int(figures[words[0]]["count"])
                        good = got == int(words[1])
                        checked += 1
                        print(f"{name} workers={n} {words[0]}: count {got} "
                              f"{'ok' if good else 'FAIL'}")
                        status |= not good
                        continue
                    region, expect = words[0], float(words[1])
                    r = max((f[region] for f in runs if region in f),
                            key=lambda x: float(x["work"]) / float(x["span"]))
                    par = float(r["work"]) / float(r["span"])
                    ok = low <= par / expect <= 1 + tol
                    work = float(r["work"])
                    note = ""
                    if same_work is not None:
                        w0 = first_work.setdefault(region, work)
                        if abs(work - w0) > same_work * w0:
                            ok = False
                            note = f" (work {work:.0f}, first run {w0:.0f})"
                    checked += 1
                    print(f"{name} workers={n} {region}: parallelism {par:.2f} "
                          f"analytic {expect:.2f} {'ok' if ok else 'FAIL'}{note}{steals}")
                    status |= not ok
    if status == 0:
        print(f"ws-scale-check: all {checked} checks ok")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
