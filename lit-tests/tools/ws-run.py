#!/usr/bin/env python3
"""Run a wsff program once per (variant binary, worker count).

usage: ws-run.py [--workers 1,2,4] [--env K=V ...] [--expect REGEX]
                 [--status N] [--expect-stderr REGEX] [--timeout SECONDS]
                 BINARY... [-- ARGS...]

Prints "<binary-suffix> workers=<n>: <stdout lines>" for each run and exits
non-zero if any run fails (its exit status is not N, 0 by default, or it
runs longer than the timeout, 120 s by default), so a lit RUN line can
FileCheck every run.  With --expect, every run's output (lines joined by
" | ") must also match REGEX (re.search), with --expect-stderr its error
output; the last line then says "ws-run: all <count> runs as expected", so
a check need not know how many runs there are.  With --status N (not 0)
and no --expect-stderr, a run's output is stdout and stderr together, in
the order written (a runtime error: "--status 2 --expect '^ws: ...$'").
"""
import os
import re
import subprocess
import sys


def main(argv):
    workers = [1, 2, 4]
    extra_env = {}
    expect = expect_stderr = None
    status_wanted = 0
    timeout = 120
    binaries, args = [], []
    it = iter(argv)
    for a in it:
        if a == "--workers":
            workers = [int(n) for n in next(it).split(",")]
        elif a == "--expect":
            expect = re.compile(next(it))
        elif a == "--expect-stderr":
            expect_stderr = re.compile(next(it))
        elif a == "--status":
            status_wanted = int(next(it))
        elif a == "--timeout":
            timeout = float(next(it))
        elif a == "--env":
            k, v = next(it).split("=", 1)
            extra_env[k] = v
        elif a == "--":
            args = list(it)
        else:
            binaries.append(a)
    merge = status_wanted != 0 and expect_stderr is None
    status = 0
    runs = 0
    for b in binaries:
        name = os.path.basename(b)
        for n in workers:
            env = dict(os.environ, WS_NUM_WORKERS=str(n), **extra_env)
            try:
                p = subprocess.run([b] + args, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT if merge
                                   else subprocess.PIPE,
                                   text=True, timeout=timeout)
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
            if expect_stderr and not expect_stderr.search(p.stderr):
                print("%s workers=%d: UNEXPECTED ERROR OUTPUT %s" %
                      (name, n, p.stderr.strip()))
                status = 1
            if p.returncode != status_wanted:
                print("%s workers=%d: EXIT %d %s" % (name, n, p.returncode,
                                                     (p.stderr or "").strip()))
                status = 1
    if (expect or expect_stderr) and status == 0:
        print("ws-run: all %d runs as expected" % runs)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
