"""Runs one program and reads what it reports: its time on stdout, the
runtime's counters (WS_STATS=1) on stderr."""

import os
import random
import re
import subprocess
import sys
import time

TIME_RE = re.compile(r"^time: ([0-9.]+)$", re.M)
CPU_RE = re.compile(r"^cpu: ([0-9.]+)$", re.M)
STATS_RE = re.compile(r"^ws: variant=(\S+) workers=\d+ S=(\S+) delta=(\S+) x=(\S+) "
                      r"spawns=(\d+|uncounted) steals=(\d+).*? fence=(\S+)", re.M)

FIELDS = ["bench", "size", "build", "workers", "rep", "status", "time_s",
          "cpu_s", "wall_s", "spawns", "steals", "variant", "fence", "S", "delta", "x",
          "args", "busy_cpus", "note"]

# Below this many CPUs busy the machine counts as idle (wait_idle).
IDLE_CPUS = 0.25


def busy_cpus(interval=0.5):
    """How many CPUs' worth of time every process together (a hypervisor's
    steal included) kept busy over the next `interval` seconds."""
    def sample():
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:9]]
        return sum(ticks), ticks[3] + ticks[4]  # all, idle + iowait
    all0, idle0 = sample()
    time.sleep(interval)
    all1, idle1 = sample()
    return (all1 - all0 - (idle1 - idle0)) / (os.sysconf("SC_CLK_TCK") * interval)


def wait_idle(limit):
    """Waits, up to `limit` seconds, until the other processes of a shared
    machine leave its CPUs idle (fewer than IDLE_CPUS busy), so that a run
    starts in a quiet moment; returns the busy CPUs last seen."""
    deadline = time.monotonic() + limit
    while True:
        busy = busy_cpus()
        if busy < IDLE_CPUS or time.monotonic() >= deadline:
            return busy
        time.sleep(1)


def run_one(exe, args, env, timeout):
    """A CSV row (without the bench/size/build/workers/rep columns):
    time_s and cpu_s are the program's own wall and CPU time of its timed
    region, wall_s the whole process's wall time (for a run killed at the
    timeout: the timeout, a lower bound)."""
    row = {f: "" for f in FIELDS}
    row.update(status="ok", args=" ".join(args))
    t0 = time.monotonic()
    try:
        p = subprocess.run([exe] + args, env=env, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        row["status"] = "timeout"
        row["wall_s"] = f"{timeout:g}"  # a lower bound of its time
        row["note"] = f"killed after {timeout:g} s"
        return row
    row["wall_s"] = f"{time.monotonic() - t0:.4f}"
    m = TIME_RE.search(p.stdout)
    if p.returncode != 0 or not m:
        row["status"] = "fail"
        lines = (p.stderr.strip() or p.stdout.strip() or "no output").splitlines()
        row["note"] = f"exit {p.returncode}: {lines[-1][:200]}"
        return row
    row["time_s"] = m.group(1)
    c = CPU_RE.search(p.stdout)
    row["cpu_s"] = c.group(1) if c else ""
    s = STATS_RE.search(p.stderr)
    if s:
        (row["variant"], row["S"], row["delta"], row["x"], row["spawns"],
         row["steals"], row["fence"]) = s.groups()
        if row["spawns"] == "uncounted":  # counted only with -fws-stats
            row["spawns"] = ""
    return row


def interleaved(name, configs, reps, seed):
    """Yields (rep, config): each repetition runs every configuration once,
    in a fresh shuffled order, with a progress line on stderr."""
    rng = random.Random(seed)
    for rep in range(reps):
        order = list(configs)
        rng.shuffle(order)
        for i, c in enumerate(order):
            print(f"\r{name}: rep {rep + 1}/{reps}, run {i + 1}/{len(order)}",
                  end="", file=sys.stderr, flush=True)
            yield rep, c
    print(file=sys.stderr)


def write_report(path, text):
    """The markdown table to its file and to stdout."""
    with open(path, "w") as f:
        f.write(text)
    print(text)
