#!/usr/bin/env python3
"""Random spawn/sync/call programs checked against a model of logical
parallelism (lit-tests/race/sp-random.test).

usage: sp-model.py WS_CLANG WORKDIR SEED COUNT [FLAGS...]

For each of COUNT programs (seeds SEED, SEED+1, ...) it writes a C program
of functions whose bodies are random sequences of memory accesses to a
64-byte global (each statement on a line of its own: 8-, 4- and 1-byte
loads and stores, loops over ranges of longs, memset and memcpy called as
functions), spawns, calls, syncs and early returns (taken, though the
compiler cannot know it: a function that returns before the spawns that
follow, a search's pruned node), builds it with WS_CLANG -fws-race and
each FLAGS (words: "-O2 -fno-slp-vectorize"; default -O0, then -O2 without
the SLP vectorizer, which widens a load to bytes the statement does not
read, and the check blames it for them), runs it, and compares its reports with a model: the program's
series-parallel graph (a spawn forks; a sync, and a function's end, join
its outstanding children), where two accesses are parallel when neither
reaches the other.  A byte races when two parallel accesses touch it, one
a write.  The run must report a race on every byte that races (the report
of a pair of lines names one of the bytes they race on: every racing byte
must be raced on by a pair reported), and every report must name two lines
that race on the byte it names, with status 66 when there is one and 0 when
there is none.  A mismatch is printed with the program and the run's
output, and the exit status is 1.  Prints "sp-model: N programs, M runs as
expected".
"""

import os
import random
import re
import subprocess
import sys

BYTES = 64


def access_items(rng):
    """One random access: (kind, [(first byte, size, is_write)...])."""
    k = rng.random()
    if k < 0.3:
        off = 8 * rng.randrange(BYTES // 8)
        return (rng.choice(("ld8", "st8")), off)
    if k < 0.45:
        off = 4 * rng.randrange(BYTES // 4)
        return (rng.choice(("ld4", "st4")), off)
    if k < 0.6:
        return (rng.choice(("ld1", "st1")), rng.randrange(BYTES))
    if k < 0.8:
        first = rng.randrange(BYTES // 8 - 1)
        n = rng.randint(2, BYTES // 8 - first)
        return (rng.choice(("loopr", "loopw")), 8 * first, n)
    if k < 0.9:
        off = rng.randrange(BYTES - 1)
        return ("memset", off, rng.randint(1, min(24, BYTES - off)))
    n = rng.randint(1, 16)
    return ("memcpy", rng.randrange(BYTES - n + 1), rng.randrange(BYTES - n + 1), n)


def touches(item):
    """The (first byte, size, is_write) spans of an access."""
    kind = item[0]
    if kind in ("ld8", "st8"):
        return [(item[1], 8, kind == "st8")]
    if kind in ("ld4", "st4"):
        return [(item[1], 4, kind == "st4")]
    if kind in ("ld1", "st1"):
        return [(item[1], 1, kind == "st1")]
    if kind in ("loopr", "loopw"):
        return [(item[1], 8 * item[2], kind == "loopw")]
    if kind == "memset":
        return [(item[1], item[2], True)]
    return [(item[2], item[3], False), (item[1], item[3], True)]


def statement(item, n):
    kind = item[0]
    if kind == "ld8":
        return "acc += *(long *)(mem + %d);" % item[1]
    if kind == "st8":
        return "*(long *)(mem + %d) = acc + %d;" % (item[1], n)
    if kind == "ld4":
        return "acc += *(int *)(mem + %d);" % item[1]
    if kind == "st4":
        return "*(int *)(mem + %d) = (int)acc + %d;" % (item[1], n)
    if kind == "ld1":
        return "acc += mem[%d];" % item[1]
    if kind == "st1":
        return "mem[%d] = (char)(acc + %d);" % (item[1], n)
    if kind == "loopr":
        return "for (int i = 0; i < %d; i++) acc += ((long *)(mem + %d))[i];" % (item[2], item[1])
    if kind == "loopw":
        return "for (int i = 0; i < %d; i++) ((long *)(mem + %d))[i] = acc + i;" % (item[2],
                                                                                    item[1])
    if kind == "memset":
        return "fill(mem + %d, (int)acc, %d);" % (item[1], item[2])
    return "copy(mem + %d, mem + %d, %d);" % (item[1], item[2], item[3])


def generate(rng):
    """(functions, C source, {line: item}): functions[i] is a list of
    items: an access, ('spawn', j), ('call', j), ('sync',), with j > i."""
    nfun = rng.randint(3, 7)
    funs = []
    for i in range(nfun):
        body = []
        for _ in range(rng.randint(1, 9)):
            k = rng.random()
            if k < 0.5:
                body.append(access_items(rng))
            elif k < 0.72 and i + 1 < nfun:
                body.append(("spawn", rng.randrange(i + 1, nfun)))
            elif k < 0.84 and i + 1 < nfun:
                body.append(("call", rng.randrange(i + 1, nfun)))
            elif k < 0.90:
                body.append(("return",))
            else:
                body.append(("sync",))
        funs.append(body)
    lines = ["#include <stdio.h>", "#include <string.h>", "#include <ws/ws.h>",
             "char mem[%d] __attribute__((aligned(64)));" % BYTES,
             "static void *(*volatile fill)(void *, int, size_t) = memset;",
             "static void *(*volatile copy)(void *, const void *, size_t) = memcpy;",
             "static void use(long x) { __asm__ volatile(\"\" : : \"r\"(x)); }",
             "static volatile int yes = 1; /* a return the compiler cannot see taken */",
             "#define BARRIER __asm__ volatile(\"\" : : : \"memory\")"]
    at = {}
    for i in range(nfun - 1, -1, -1):
        lines.append("static void f%d(void) {" % i)
        lines.append("  long acc = 0;")
        for item in funs[i]:
            if item[0] == "spawn":
                lines.append("  ws_spawn_void(f%d);" % item[1])
            elif item[0] == "call":
                lines.append("  f%d();" % item[1])
            elif item[0] == "sync":
                lines.append("  ws_sync();")
            elif item[0] == "return":
                lines.append("  if (yes) { use(acc); return; }")
            else:
                lines.append("  " + statement(item, len(lines)))
                at[len(lines)] = item
                lines.append("  BARRIER;")
        lines.append("  use(acc);")
        lines.append("}")
    lines += ["int main(void) {",
              '  printf("base %p\\n", (void *)mem);',
              "  fflush(stdout);",
              "  f0();",
              '  printf("done %d\\n", mem[0]);',
              "  return 0;", "}"]
    # the access of each item, by identity, to its line
    line_of = {id(item): line for line, item in at.items()}
    return funs, "\n".join(lines) + "\n", line_of


def racing_pairs(funs, line_of):
    """{byte: {(line, line)}}: the pairs of lines (both orders) with
    logically parallel accesses to the byte, one a write."""
    succ = []
    accesses = []  # (node, line, set of bytes read, set written)

    def node():
        succ.append([])
        return len(succ) - 1

    def edge(a, b):
        succ[a].append(b)

    def expand(f, start):
        cur, pending = start, []
        for item in funs[f]:
            if item[0] == "spawn":
                s = node()
                edge(cur, s)
                pending.append(expand(item[1], s))
                c = node()
                edge(cur, c)
                cur = c
            elif item[0] == "call":
                cur = expand(item[1], cur)
            elif item[0] == "return":
                break  # the rest is never run (the implicit sync follows)
            elif item[0] == "sync":
                j = node()
                edge(cur, j)
                for e in pending:
                    edge(e, j)
                pending, cur = [], j
            else:
                n = node()
                edge(cur, n)
                cur = n
                reads, writes = set(), set()
                for first, size, write in touches(item):
                    (writes if write else reads).update(range(first, first + size))
                accesses.append((n, line_of[id(item)], reads, writes))
        j = node()  # the implicit sync at the end
        edge(cur, j)
        for e in pending:
            edge(e, j)
        return j

    expand(0, node())
    reach = {}
    for n, _, _, _ in accesses:
        seen, todo = {n}, [n]
        while todo:
            for m in succ[todo.pop()]:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        reach[n] = seen
    racing = {}
    for i, (a, la, ra, wa) in enumerate(accesses):
        for b, lb, rb, wb in accesses[i + 1:]:
            if b in reach[a] or a in reach[b]:
                continue
            for byte in (wa & (rb | wb)) | (wb & ra):
                racing.setdefault(byte, set()).update({(la, lb), (lb, la)})
    return racing


REPORT = re.compile(r"determinacy race on address (0x[0-9a-f]+)\n"
                    r"  \w+ here:\n    #0 \S+ \S+:(\d+):\d+\n"
                    r"(?:    #.*\n)*"
                    r"  logically parallel \w+ before it[^\n]*\n    #0 \S+ \S+:(\d+):\d+\n")


def main():
    ws_clang, work, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    olevels = sys.argv[5:] or ["-O0", "-O2 -fno-slp-vectorize"]
    os.makedirs(work, exist_ok=True)
    runs = bad = 0
    for s in range(seed, seed + count):
        funs, src, line_of = generate(random.Random(s))
        racing = racing_pairs(funs, line_of)
        path = os.path.join(work, "sp%d.c" % s)
        with open(path, "w") as f:
            f.write(src)
        for o in olevels:
            exe = os.path.join(work, "sp%d%s" % (s, o.split()[0]))
            subprocess.run([ws_clang, "-fws-race"] + o.split() + [path, "-o", exe], check=True)
            p = subprocess.run([exe], capture_output=True, text=True, timeout=600)
            out = p.stdout + p.stderr
            base = int(re.search(r"^base (0x[0-9a-f]+)", out, re.M).group(1), 16)
            reports = [(int(a, 16) - base, int(l1), int(l2)) for a, l1, l2 in REPORT.findall(out)]
            why = []
            if len(reports) != out.count("determinacy race on address"):
                why.append("a report not understood")
            pairs = {(l1, l2) for _, l1, l2 in reports}
            for byte, l1, l2 in reports:
                if (l1, l2) not in racing.get(byte, ()):
                    why.append("lines %d and %d do not race on byte %d" % (l1, l2, byte))
            for byte, racers in sorted(racing.items()):
                if not racers & pairs:
                    why.append("no report of a race on byte %d" % byte)
            status = 66 if racing else 0
            if p.returncode != status:
                why.append("status %d, expected %d" % (p.returncode, status))
            runs += 1
            if why:
                bad += 1
                print("sp-model: seed %d %s: %s" % (s, o, "; ".join(why)))
                print(src)
                print(out)
    print("sp-model: %d programs, %d runs%s" % (count, runs,
                                                " as expected" if not bad else
                                                ", %d not as expected" % bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
