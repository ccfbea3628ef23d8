"""One run of a ws-scale build on one worker, and its report's row.

Shared by scaleplot.py and scaledefault.py: the program runs with
WS_NUM_WORKERS=1 and WS_SCALE_OUT set to a file under `tmp`; the row of
`region` at P = 1 of that CSV (docs/scale.md) comes back as a dict.
"""

import csv
import os
import subprocess


def scale_row(exe, args, env, region, tmp, out_name="scale.csv", timeout=None):
    out = os.path.join(tmp, out_name)
    env = dict(env, WS_NUM_WORKERS="1", WS_SCALE_OUT=out)
    p = subprocess.run([exe] + args, env=env, capture_output=True, text=True,
                       timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"{exe} {' '.join(args)}: exit {p.returncode}: "
                           f"{p.stderr.strip()[-300:]}")
    with open(out, newline="") as f:
        for r in csv.DictReader(f):
            if r["region"] == region and r["workers"] == "1":
                return r
    raise RuntimeError(f"{exe}: no region {region} in its report")
