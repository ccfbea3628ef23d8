"""What the results were measured on, for the head of every results page:
the CPU, the store-buffer bound S the runtime used there (and where S came
from), the software, and the command that regenerates the page."""

import datetime
import os
import platform
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# S_from= of the WS_STATS line (docs/bounded-tso.md), in words.
S_SOURCES = {
    "env": "WS_STORE_BUFFER, set by the harness's --store-buffer",
    "calibration": "this CPU's record in the calibration file (ws-calibrate)",
    "default": "the runtime's conservative default: no calibration record for this "
               "CPU (measure and validate it with build/bin/ws-calibrate, or pass --store-buffer)",
}


def _first_line(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = (p.stdout or p.stderr).strip().splitlines()
    return out[0] if p.returncode == 0 and out else None


def cpu():
    """The CPU as /proc/cpuinfo names it: brand, CPUID vendor, family,
    model and stepping (the key of the runtime's CPU table and calibration
    records), and whether a hypervisor is present."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break  # the first CPU is enough
                k, _, v = line.partition(":")
                fields[k.strip()] = v.strip()
    except OSError:
        return platform.processor() or "unknown CPU"
    text = fields.get("model name", platform.processor() or "unknown CPU")
    if "cpu family" in fields and "model" in fields:
        text += (f" ({fields.get('vendor_id', '?')} family {int(fields['cpu family']):#x} "
                 f"model {int(fields['model']):#x} stepping {fields.get('stepping', '?')}"
                 + (", under a hypervisor" if "hypervisor" in fields.get("flags", "").split()
                    else "") + ")")
    return text


def _memory_gib():
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
        return f"{kib / (1 << 20):.0f} GiB"
    except (OSError, ValueError, IndexError):
        return "unknown memory"


def resolved_s(exe, args, given=None):
    """The S the runtime resolves for one of our programs run the way the
    harness runs it (with WS_STORE_BUFFER=given when the harness was given
    one), and its source: ("113", "env"), or (None, why not)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WS_")}
    env.update(WS_STATS="1", WS_NUM_WORKERS="1")
    if given:
        env["WS_STORE_BUFFER"] = str(given)
    try:
        p = subprocess.run([exe] + args, env=env, capture_output=True, text=True,
                           timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"{exe} did not run: {e}"
    m = re.search(r"^ws: variant=.* S=(\S+) .*S_from=(\S+)", p.stderr, re.M)
    if not m:
        return None, f"{exe} printed no WS_STATS line"
    return m.group(1), m.group(2)


def s_line(s, source):
    if s is None:
        return f"S: unknown ({source})"
    words = S_SOURCES.get(source) or (
        f"the runtime's CPU table, row {source.split(':', 1)[1]}"
        if source.startswith("cpu-table:") else source)
    return f"S (the store-buffer bound the runs used): {s}, from {words}"


def command(script, argv):
    """The command line that regenerates a page, as typed at the root of
    the source tree."""
    path = os.path.relpath(os.path.abspath(script), ROOT)
    return " ".join([path] + [shlex.quote(a) for a in argv])


def _commit():
    head = _first_line(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
    if head is None:
        return "unknown (not a git checkout)"
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain",
                            "--untracked-files=no"], capture_output=True, text=True).stdout
    return head + (" with uncommitted changes" if dirty.strip() else "")


def describe(s_text, regenerate):
    """A short Markdown list: CPU and S first, then the software, the date,
    the commit and the command."""
    items = [
        f"CPU: {cpu()}, {os.cpu_count()} online CPUs, {_memory_gib()}",
        s_text,
        f"OS: {platform.system()} {platform.release()}",
        f"Compilers: {_first_line(['/usr/lib/llvm-19/bin/clang', '--version'])}; "
        f"{_first_line(['gcc', '--version'])}",
        "Peers: " + ", ".join(
            f"{pkg} {v}" for pkg in ("libomp-19-dev", "libgomp1", "libtbb-dev")
            if (v := _first_line(["dpkg-query", "-W", "-f=${Version}", pkg]))),
        f"Date: {datetime.date.today().isoformat()}",
        f"Commit: {_commit()}",
        f"Regenerate: `{regenerate}`",
    ]
    return "".join(f"- {i}\n" for i in items)


def page_head(exe, args, given_s, argv):
    """describe() for a page that the script running now writes: S as
    `exe args` resolves it, the command from sys.argv[0] and argv."""
    return describe(s_line(*resolved_s(exe, args, given_s)), command(sys.argv[0], argv))
