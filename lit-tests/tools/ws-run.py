#!/usr/bin/env python3
"""Run a wsff program once per (variant binary, worker count).

usage: ws-run.py [--workers 1,2,4] [--env K=V ...] BINARY... [-- ARGS...]

Prints "<binary-suffix> workers=<n>: <stdout lines>" for each run and exits
non-zero if any run fails, so a lit RUN line can FileCheck every run.
"""
import os
import subprocess
import sys


def main(argv):
    workers = [1, 2, 4]
    extra_env = {}
    binaries, args = [], []
    it = iter(argv)
    for a in it:
        if a == "--workers":
            workers = [int(n) for n in next(it).split(",")]
        elif a == "--env":
            k, v = next(it).split("=", 1)
            extra_env[k] = v
        elif a == "--":
            args = list(it)
        else:
            binaries.append(a)
    status = 0
    for b in binaries:
        name = os.path.basename(b)
        for n in workers:
            env = dict(os.environ, WS_NUM_WORKERS=str(n), **extra_env)
            try:
                p = subprocess.run([b] + args, env=env, capture_output=True,
                                   text=True, timeout=120)
            except subprocess.TimeoutExpired:
                print("%s workers=%d: TIMEOUT" % (name, n))
                status = 1
                continue
            out = p.stdout.strip().replace("\n", " | ")
            print("%s workers=%d: %s" % (name, n, out))
            if p.returncode != 0:
                print("%s workers=%d: EXIT %d %s" % (name, n, p.returncode,
                                                     p.stderr.strip()))
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
