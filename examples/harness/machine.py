"""What the results were measured on, for the head of results.md."""

import datetime
import os
import platform
import subprocess


def _first_line(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = (p.stdout or p.stderr).strip().splitlines()
    return out[0] if p.returncode == 0 and out else None


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _memory_gib():
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
        return f"{kib / (1 << 20):.0f} GiB"
    except (OSError, ValueError, IndexError):
        return "unknown memory"


def describe():
    """A short Markdown list: machine, OS, compilers, date, commit."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    items = [
        f"Machine: {_cpu_model()}, {os.cpu_count()} online CPUs, {_memory_gib()}",
        f"OS: {platform.system()} {platform.release()}",
        f"Compilers: {_first_line(['/usr/lib/llvm-19/bin/clang', '--version'])}; "
        f"{_first_line(['gcc', '--version'])}",
        "Peers: " + ", ".join(
            f"{pkg} {v}" for pkg in ("libomp-19-dev", "libgomp1", "libtbb-dev")
            if (v := _first_line(["dpkg-query", "-W", "-f=${Version}", pkg]))),
        f"Date: {datetime.date.today().isoformat()}",
        f"Commit: {_first_line(['git', '-C', root, 'rev-parse', '--short', 'HEAD'])}",
    ]
    return "".join(f"- {i}\n" for i in items)
