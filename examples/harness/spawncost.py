#!/usr/bin/env python3
"""spawncost — what a spawn costs when nothing is stolen (issue 13).

For fib (or skynet, --program) under the serial elision and every deque
variant (build/examples/bin/fib_<v>, ws-clang -O2):

  instr/spawn   instructions per spawn, from valgrind --tool=callgrind at two
                sizes (fib(27) - fib(25), so start-up cancels out); callgrind
                counts instructions, not time, so the figure is the same on
                a loaded machine
  calls/spawn   calls of the program's own functions per spawn, from the
                same runs
  T1/T_S        one worker against the serial elision: medians of the CPU
                time of the timed region over interleaved repetitions
  T1/T2         one worker against two (wall time)

A spawn of fib is a call with n >= 2: fib(n) makes F(n+1) - 1, each in
straight-line code.  skynet spawns in a loop: nine spawns and one call a
node above the leaves, 10^d - 1 spawns at depth d (skynet(5) - skynet(4)).

  examples/harness/spawncost.py                       # everything, fib(36), 5 reps
  examples/harness/spawncost.py --no-time             # instructions only
  examples/harness/spawncost.py --no-time --max thep=30,ffthe=30,split=30
        # exit 1 when a variant needs more instructions per spawn (the ctest)
  examples/harness/spawncost.py --program skynet      # the same for skynet, depth 7
  examples/harness/spawncost.py --peer 'lace=/path/fib-lace -w {workers} {n}'
        # a peer's fib, measured the same way ({n}, {workers} filled in; its
        # "time:" line is read, any case, else the whole run is timed)
"""

import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import runner
import variants

PEER_TIME_RE = re.compile(r"^time: ([0-9.]+)", re.M | re.I)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fib_spawns(n):
    """Calls of fib with n >= 2 in fib(n): F(n+1) - 1."""
    a, b = 0, 1
    for _ in range(n + 1):
        a, b = b, a + b
    return a - 1


def skynet_spawns(depth):
    """Nine spawns a node above the leaves, (10^depth - 1) / 9 nodes."""
    return 10 ** depth - 1


# program: (the two sizes callgrind runs, its spawns at a size, the size
# timed by default, the names of its functions in callgrind's output:
# "fib'2" is a recursion level, pfib a peer's).
PROGRAMS = {
    "fib": ((25, 27), fib_spawns, 36, r"p?fib([._']|$)"),
    "skynet": ((4, 5), skynet_spawns, 7, r"skynet([._']|$)"),
}


def command(prog, n, workers):
    """The command line of a program: our fib takes N (workers from the
    environment); a peer's is a template."""
    if "{" in prog:
        return shlex.split(prog.format(n=n, workers=workers))
    return [prog, str(n)]


def callgrind(exe, n, workdir, env, functions):
    """(instructions, calls of the functions matching `functions`) of one
    run of `exe n`."""
    out = os.path.join(workdir, "cg.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] +
                       command(exe, n, 1), env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"spawncost: callgrind {exe} {n} failed:\n{p.stderr}")
    m = re.search(r"Collected : (\d+)", p.stderr)
    if not m:
        sys.exit(f"spawncost: no instruction count from callgrind:\n{p.stderr}")
    names, calls, callee = {}, 0, None
    with open(out) as f:
        for line in f:
            if line.startswith("cfn="):
                m2 = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.strip())
                if m2.group(2):
                    names[m2.group(1)] = m2.group(2)
                callee = names.get(m2.group(1), "")
            elif line.startswith("calls=") and callee is not None:
                if re.match(functions, callee):
                    calls += int(line.split()[0][len("calls="):])
                callee = None
    return int(m.group(1)), calls


def per_spawn(exe, workdir, env, program):
    (small, large), spawns, _, functions = PROGRAMS[program]
    i1, c1 = callgrind(exe, small, workdir, env, functions)
    i2, c2 = callgrind(exe, large, workdir, env, functions)
    d = spawns(large) - spawns(small)
    return (i2 - i1) / d, (c2 - c1) / d


def timed(exe, n, workers, env):
    """(cpu, wall) of the timed region, or the whole process's wall time."""
    e = dict(env, WS_NUM_WORKERS=str(workers))
    t0 = time.monotonic()
    p = subprocess.run(command(exe, n, workers), env=e, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"spawncost: {exe} {n} failed:\n{p.stdout}{p.stderr}")
    t, c = PEER_TIME_RE.search(p.stdout), runner.CPU_RE.search(p.stdout)
    t = float(t.group(1)) if t else wall
    return (float(c.group(1)) if c else t, t)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--builds", help="comma-separated variants (default: all)")
    ap.add_argument("--program", choices=sorted(PROGRAMS), default="fib",
                    help="the program measured (default fib)")
    ap.add_argument("--n", type=int, help="size timed (default: fib 36, skynet 7)")
    ap.add_argument("--reps", type=int, default=5, help="repetitions (default 5)")
    ap.add_argument("--no-time", action="store_true", help="instructions only")
    ap.add_argument("--max", default="",
                    help="variant=N,...: fail when instr/spawn exceeds N")
    ap.add_argument("--peer", action="append", default=[], metavar="NAME=PATH",
                    help="a peer's program, measured the same way")
    a = ap.parse_args(argv)
    (small, large), _, default_n, _ = PROGRAMS[a.program]
    a.n = a.n or default_n
    if not shutil.which("valgrind"):
        print("spawncost: valgrind not found (apt-get install valgrind)", file=sys.stderr)
        return 77
    bindir = os.path.join(a.build, "examples", "bin")
    builds = a.builds.split(",") if a.builds else variants.names()
    progs = [(b, os.path.join(bindir, f"{a.program}_{b}")) for b in ["serial"] + builds]
    for peer in a.peer:
        name, _, path = peer.partition("=")
        progs.append((name, path))
    for name, exe in progs:
        if not os.access(command(exe, 1, 1)[0], os.X_OK):
            sys.exit(f"spawncost: {exe} not built")
    limits = {}
    for item in filter(None, a.max.split(",")):
        k, _, v = item.partition("=")
        limits[k] = float(v)

    env = {k: v for k, v in os.environ.items() if not k.startswith("WS_")}
    env["WS_NUM_WORKERS"] = "1"
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, exe in progs:
            rows[name] = dict(zip(("instr", "calls"), per_spawn(exe, tmp, env, a.program)))
    if not a.no_time:
        samples = {name: {1: [], 2: []} for name, _ in progs}
        for rep, (name, exe) in runner.interleaved(
                "spawncost", [(n, e) for n, e in progs], a.reps, 1):
            for workers in (1, 2):
                cpu, wall = timed(exe, a.n, workers, env)
                samples[name][workers].append(cpu if workers == 1 else wall)
        ts = statistics.median(samples["serial"][1])
        for name, _ in progs:
            t1 = statistics.median(samples[name][1])
            t2 = statistics.median(samples[name][2])
            rows[name].update(t1_ts=t1 / ts, t1_t2=t1 / t2)

    p = a.program
    print(f"{p}, one worker: instructions and calls per spawn (callgrind, "
          f"{p}({large}) - {p}({small}))" +
          ("" if a.no_time else f"; T1/T_S and T1/T2 at {p}({a.n}), median of {a.reps}"))
    print("| build | instr/spawn | calls/spawn |" + ("" if a.no_time else " T1/T_S | T1/T2 |"))
    print("| --- | --- | --- |" + ("" if a.no_time else " --- | --- |"))
    failed = []
    for name, _ in progs:
        r = rows[name]
        line = f"| {name} | {r['instr']:.1f} | {r['calls']:.2f} |"
        if not a.no_time:
            line += f" {r['t1_ts']:.2f} | {r['t1_t2']:.2f} |"
        print(line)
        if name in limits and r["instr"] > limits[name]:
            failed.append(f"{name}: {r['instr']:.1f} instructions per spawn, "
                          f"more than {limits[name]:g}")
    for f in failed:
        print(f"spawncost: {f}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
