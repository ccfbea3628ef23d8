#!/usr/bin/env python3
"""runtime/src in layers: no circle of includes and calls between its files.

A file's unit is its name without the extension (x.c and x.h are one
unit).  Edges: unit A includes B's header; unit A's object refers to a
symbol B's object defines (nm).  Calls through the C library's names
(free, memcpy, write, _exit: libws_race interposes them, so its objects
define them too) are not calls into the runtime: every name the C
library itself exports is one.
Exits 1 naming every circle, with the edges that close it.

usage: layers.py SRC_DIR OBJECT...
"""
import collections
import os
import re
import subprocess
import sys

LIBC_NAMES = {"free", "realloc", "malloc", "calloc"}


def libc_names():
    """The names libc.so.6 exports (nm -D), or the fixed few above."""
    names = set(LIBC_NAMES)
    for cc in ("cc", "gcc", "clang-19"):
        try:
            path = subprocess.run([cc, "-print-file-name=libc.so.6"], capture_output=True,
                                  text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            continue
        if not os.path.isabs(path):
            continue
        out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3:
                names.add(p[2].split("@")[0])
        break
    return names


def unit_of_source(src, path):
    return os.path.splitext(os.path.relpath(path, src))[0]


def unit_of_object(obj):
    # CMake's object path: .../<target>.dir/src/<dir>/<file>.c.o (Make),
    # .../<target>.dir/./src/... (Ninja): a path not matched is an error,
    # or the calls would silently not count.
    m = re.search(r"\.dir/(?:\./)?src/(.+?)\.(c|cpp)\.o$", obj)
    return m.group(1) if m else None


def graph(src, objects):
    g = collections.defaultdict(set)
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith((".c", ".h", ".cpp")):
                continue
            path = os.path.join(root, f)
            for inc in re.findall(r'#include "([^"]+)"', open(path).read()):
                target = os.path.normpath(os.path.join(root, inc))
                if os.path.exists(target):
                    a, b = unit_of_source(src, path), unit_of_source(src, target)
                    if a != b:
                        g[a].add((b, "includes " + inc))
    defs, uses = {}, collections.defaultdict(set)
    for obj in objects:
        u = unit_of_object(obj)
        if u is None:
            sys.exit(f"layers.py: {obj}: not an object of runtime/src")
        out = subprocess.run(["nm", obj], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBRVWC":
                defs[p[2]] = u
            elif len(p) == 2 and p[0] == "U":
                uses[u].add(p[1])
    libc = libc_names()
    for u, names in uses.items():
        for n in names:
            if n in defs and defs[n] != u and n not in libc:
                g[u].add((defs[n], "calls " + n))
    return g


def circles(g):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w, _ in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(g):
        if v not in index:
            visit(v)
    return out


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-1])
        return 2
    # CMake may pass a target's objects as one ;-separated argument.
    src = argv[1]
    objects = [o for arg in argv[2:] for o in arg.split(";") if o]
    g = graph(src, objects)
    found = circles(g)
    for comp in found:
        print("circle: " + " ".join(comp))
        for a in comp:
            for b, why in sorted(g[a]):
                if b in comp:
                    print(f"  {a} -> {b} ({why})")
    units = len(set(g) | {b for e in g.values() for b, _ in e})
    print(f"layers: {units} units, {len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
