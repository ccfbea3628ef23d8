#!/usr/bin/env python3
"""Run a wsff program once per (variant binary, worker count).

usage: ws-run.py [--workers 1,2,4] [--env K=V ...] [--expect REGEX]
                 [--status N] BINARY... [-- ARGS...]

Prints "<binary-suffix> workers=<n>: <stdout lines>" for each run and exits
non-zero if any run fails, so a lit RUN line can FileCheck every run.  With
--expect, every run's output (lines joined by " | ") must also match REGEX
(re.search); the last line then says "ws-run: all <count> runs as
expected", so a check need not know how many runs there are.  With
--status N, every run must exit with status N instead of 0, and its
output is stdout and stderr together, in the order written (a runtime
error: "--status 2 --expect '^ws: ...$'").
"""
import os
import re
import subprocess
import sys


def main(argv):
    workers = [1, 2, 4]
    extra_env = {}
    expect = None
    want_status = 0
    binaries, args = [], []
    it = iter(argv)
    for a in it:
        if a == "--workers":
            workers = [int(n) for n in next(it).split(",")]
        elif a == "--expect":
            expect = re.compile(next(it))
        elif a == "--status":
            want_status = int(next(it))
        elif a == "--env":
            k, v = next(it).split("=", 1)
            extra_env[k] = v
        elif a == "--":
            args = list(it)
        else:
            binaries.append(a)
    status = 0
    runs = 0
    for b in binaries:
        name = os.path.basename(b)
        for n in workers:
            env = dict(os.environ, WS_NUM_WORKERS=str(n), **extra_env)
            try:
                p = subprocess.run([b] + args, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT if want_status
                                   else subprocess.PIPE,
                                   text=True, timeout=120)
            except subprocess.TimeoutExpired:
                print("%s workers=%d: TIMEOUT" % (name, n))
                status = 1
                continue
            out = p.stdout.strip().replace("\n", " | ")
            print("%s workers=%d: %s" % (name, n, out))
            runs += 1
            if expect and not expect.search(out):
                print("%s workers=%d: UNEXPECTED OUTPUT" % (name, n))
                status = 1
            if p.returncode != want_status:
                print("%s workers=%d: EXIT %d %s" % (name, n, p.returncode,
                                                     (p.stderr or "").strip()))
                status = 1
    if expect and status == 0:
        print("ws-run: all %d runs as expected" % runs)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
