#!/usr/bin/env python3
"""expect_steals.py RUNS PROGRAM [ARGS...]

Runs PROGRAM with two workers and WS_STATS=1 until RUNS runs have stolen at
least one task, and fails once more than RUNS runs have not.  A liveness
check, not a timing: a thief that never gets work leaves a correct result
and a one-worker run (jacobi on `split` did that in 7 of 8 runs before the
scheduler's WS_WAKE_ROUNDS), which no other test would notice; at that rate
this check fails 97 times in 100.  Such a thief looks, finds nothing and
sleeps (sleeps > 0): a miss.

A request-based deque (split, private) shares only while its thief is
running when the owner answers, so a thief that must share its CPU with
another process misses now and then (1 run in 9 with one busy loop beside
it).  So the check says nothing about a run during which the machine was
busy: others' CPU time (other processes, and the time a hypervisor gave to
other guests: /proc/stat's steal) over a quarter of the run's wall time.
Nor about a run with neither a steal nor a sleep: the thief's thread was
not scheduled before the program ended (a busy run, when others had the
CPUs then: a full ctest on a loaded machine gave 29 such runs of 30).
Neither counts, up to 10 * RUNS
attempts; if the machine stayed busy for all of them, the check is skipped
(exit status 77), never failed, for the machine's sake (issue 33: it failed
in a full ctest run while other processes used the CPUs).
"""
import os
import re
import resource
import subprocess
import sys
import time

SKIPPED = 77


def busy_jiffies():
    """Time every CPU spent on anything but idling, and stolen by the
    hypervisor, in clock ticks (/proc/stat's first line)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq = fields[:7]
    steal = fields[7] if len(fields) > 7 else 0
    return user + nice + system + irq + softirq + steal


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv):
    runs, cmd = int(argv[0]), argv[1:]
    tick = os.sysconf("SC_CLK_TCK")
    env = dict(os.environ, WS_NUM_WORKERS="2", WS_STATS="1")
    stolen = misses = busy = 0
    for attempt in range(1, 10 * runs + 1):
        if stolen >= runs:
            return 0
        cpu0, busy0, wall0 = children_cpu(), busy_jiffies(), time.monotonic()
        p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - wall0
        others = (busy_jiffies() - busy0) / tick - (children_cpu() - cpu0)
        if p.returncode != 0:
            print(f"expect_steals: {' '.join(cmd)} failed (run {attempt}):\n{p.stderr}")
            return 1
        m = re.search(r"^ws: variant=.* steals=(\d+) .*sleeps=(\d+)", p.stderr, re.M)
        if not m:
            print(f"expect_steals: no WS_STATS line from {' '.join(cmd)} (run {attempt}):\n{p.stderr}")
            return 1
        steals, sleeps = int(m.group(1)), int(m.group(2))
        if steals:
            stolen += 1
            print(f"run {attempt}: steals={steals}")
            continue
        if sleeps == 0:
            # Counted as busy when others had the CPUs: then a run of
            # these alone says nothing, and the check is skipped.
            if others > 0.25 * wall:
                busy += 1
            print(f"run {attempt}: steals=0 sleeps=0: the thief did not run "
                  f"(others used {others:.2f} s of CPU in {wall:.2f} s); not counted")
            continue
        if others > 0.25 * wall:
            busy += 1
            print(f"run {attempt}: no steal while others used {others:.2f} s of CPU "
                  f"in {wall:.2f} s; not counted")
            continue
        misses += 1
        print(f"run {attempt}: the thief ran and slept, but no task was stolen "
              f"with two workers on an idle machine (miss {misses})")
        if misses > runs:
            print(f"expect_steals: {misses} runs of {' '.join(cmd)} stole nothing "
                  f"with two workers, {stolen} did; the last:\n{p.stderr}")
            return 1
    if stolen >= runs:
        return 0
    if busy:
        print(f"expect_steals: skipped: the machine was busy in {busy} of "
              f"{10 * runs} runs, {stolen} stole")
        return SKIPPED
    print(f"expect_steals: in {10 * runs} runs of {' '.join(cmd)} the thief ran in only {stolen}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
