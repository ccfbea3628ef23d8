#!/usr/bin/env python3
"""doc_commands — the doc-test: runs every shell command of README.md and docs/ against a build,
so that the documentation cannot rot.

  scripts/doc_commands.py --build BUILD [--source DIR] [--list] [FILE.md ...]

A fenced block tagged `sh` is a command; every other fence needs a tag
that says what it holds instead (`text` for output or a synopsis, `c`,
`asm`, ...), and indented code blocks are refused, so nothing that looks
like a command escapes the test.  HTML comments on the lines just above a
fence adjust how it runs, each with its reason:

  <!-- doctest: replace "OLD" "NEW" REASON -->  run with OLD replaced by NEW
                                                 (OLD must occur)
  <!-- doctest: exit 0,1 REASON -->             these exit statuses pass
  <!-- doctest: skip REASON -->                 not run; counted and printed

Each file's blocks run in order in a fresh copy of the source tree whose
`build` is a link to BUILD, with an empty HOME, no WS_* variables, and
"/tmp/" in commands rewritten to a `tmp/` of that copy.  Every command
(a line, or the lines that form one shell construct) must exit 0, even
inside an `&&` chain.  docs/doctest.md is the reader's version of this.
"""

import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

RUN_TAG = "sh"
# Tags that read as commands but would not be run: refused, so that
# nobody takes them for tested.
COMMAND_LIKE = {"bash", "shell", "console", "shell-session", "zsh"}
FENCE_RE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)(.*)$")
COMMENT_RE = re.compile(r"^\s*<!--(.*)-->\s*$")
ITEM_RE = re.compile(r"^(\s*)([-*+]|\d+[.)])(\s+)\S")
BLOCK_TIMEOUT = 300


class Block:
    def __init__(self, path, line, tag, text, directives):
        self.path, self.line, self.tag, self.text = path, line, tag, text
        self.directives = directives  # [(action, args, reason)]
        self.skip = next((r for a, _, r in directives if a == "skip"), None)
        self.replacements = [args for a, args, _ in directives if a == "replace"]
        self.exits = next((args for a, args, _ in directives if a == "exit"), ["0"])

    def where(self):
        return f"{self.path}:{self.line}"


def parse_directive(body):
    """(action, args, reason) from the text after 'doctest:'; raises
    ValueError when it is malformed.  The reason is plain text; replace's
    OLD and NEW are double-quoted (a backslash escapes a quote)."""
    m = re.match(r"\s*(\S+)\s*(.*)$", body, re.S)
    if not m:
        raise ValueError("empty doctest directive")
    action, rest = m.groups()
    if action == "skip":
        args = []
    elif action == "replace":
        q = r'"((?:[^"\\]|\\.)*)"'
        m = re.match(q + r"\s+" + q + r"\s*(.*)$", rest, re.S)
        if not m:
            raise ValueError('doctest: replace needs "OLD" "NEW" and a reason')
        args = [re.sub(r"\\(.)", r"\1", a) for a in m.groups()[:2]]
        rest = m.group(3)
        if not args[0]:
            raise ValueError("doctest: replace needs a non-empty OLD")
    elif action == "exit":
        m = re.match(r"(\d+(?:,\d+)*)\s*(.*)$", rest, re.S)
        if not m:
            raise ValueError("doctest: exit needs statuses (e.g. 0,1) and a reason")
        args, rest = m.group(1).split(","), m.group(2)
    else:
        raise ValueError(f"unknown doctest directive '{action}' (skip, replace, exit)")
    reason = rest.strip()
    if not reason:
        raise ValueError(f"doctest: {action} needs a reason")
    return action, args, reason


def parse(path, text):
    """([Block], [error]) of one Markdown file."""
    lines = text.split("\n")
    blocks, errors = [], []
    i = 0
    prev_blank = True
    list_indent = None  # content indentation of the list we are in, if any
    seen, used = set(), set()  # lines of doctest directives, and those above a fence
    while i < len(lines):
        line = lines[i]
        m = FENCE_RE.match(line)
        if m:
            indent, fence, tag = len(m.group(1)), m.group(2), m.group(3)
            directives = []
            j = i - 1
            while j >= 0 and COMMENT_RE.match(lines[j]):
                body = COMMENT_RE.match(lines[j]).group(1).strip()
                if body.startswith("doctest:"):
                    used.add(j)
                    try:
                        directives.insert(0, parse_directive(body[len("doctest:"):]))
                    except ValueError as e:
                        errors.append(f"{path}:{j + 1}: {e}")
                j -= 1
            close = re.compile(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence))
                               + r",}\s*$")
            k = i + 1
            while k < len(lines) and not close.match(lines[k]):
                k += 1
            if k == len(lines):
                errors.append(f"{path}:{i + 1}: fence never closed")
            body = "\n".join(l[indent:] if l[:indent].isspace() else l.lstrip()
                             for l in lines[i + 1:k])
            where = f"{path}:{i + 1}"
            if not tag:
                errors.append(f"{where}: untagged fence: tag a command `{RUN_TAG}`, "
                              "output or a synopsis `text` (docs/doctest.md)")
            elif tag in COMMAND_LIKE:
                errors.append(f"{where}: fence tagged `{tag}`: tag commands `{RUN_TAG}` "
                              "(only those are run), output `text`")
            elif directives and tag != RUN_TAG:
                errors.append(f"{where}: doctest directives on a `{tag}` block, "
                              "which is not run")
            blocks.append(Block(path, i + 1, tag, body, directives))
            i = k + 1
            prev_blank = False
            continue
        stripped = line.strip()
        if not stripped:
            prev_blank = True
            i += 1
            continue
        if COMMENT_RE.match(line) and COMMENT_RE.match(line).group(1).strip().startswith(
                "doctest:"):
            seen.add(i)
        expanded = line.expandtabs(4)
        indent = len(expanded) - len(expanded.lstrip())
        item = ITEM_RE.match(expanded)
        if item:
            list_indent = len(item.group(1)) + len(item.group(2)) + len(item.group(3))
        elif indent == 0:
            list_indent = None
        elif prev_blank and indent >= (list_indent or 0) + 4:
            errors.append(f"{path}:{i + 1}: indented code block: fence it and tag it "
                          f"(`{RUN_TAG}` for commands, `text` otherwise)")
            while i + 1 < len(lines) and (not lines[i + 1].strip()
                                          or lines[i + 1].startswith("    ")):
                i += 1
        prev_blank = False
        i += 1
    errors += [f"{path}:{j + 1}: doctest directive not on the lines just above a fence"
               for j in sorted(seen - used)]
    return blocks, errors


def commands(text):
    """The block split into commands: each line, or the few lines that
    form one shell construct (a loop, a continued line), as bash parses
    them; comment-only lines dropped."""
    out, chunk = [], []
    for line in text.split("\n"):
        if not chunk and (not line.strip() or line.strip().startswith("#")):
            continue
        chunk.append(line)
        src = "\n".join(chunk)
        if src.endswith("\\"):
            continue
        if subprocess.run(["bash", "-n", "-c", src], capture_output=True).returncode == 0:
            out.append(src)
            chunk = []
    if chunk:
        out.append("\n".join(chunk))  # bash reports the syntax error when run
    return out


def script(block, tmpdir):
    """The bash script that runs a block: every command checked."""
    text = block.text
    for old, new in block.replacements:
        text = text.replace(old, new)
    text = text.replace("/tmp/", tmpdir.rstrip("/") + "/")
    ok = " ".join(block.exits)
    parts = ["set -o pipefail"]
    for n, cmd in enumerate(commands(text), 1):
        shown = cmd.split("\n")[0]
        parts.append(f"printf '%s\\n' {shlex.quote('+ ' + shown)} >&2")
        parts.append("{ " + cmd + "\n}")
        parts.append(f'__s=$?; case " {ok} " in *" $__s "*) ;; *) '
                     f'printf "doctest: command {n} exited with %s: %s\\n" "$__s" '
                     f'{shlex.quote(shown)} >&2; exit 100 ;; esac')
    return "\n".join(parts) + "\n"


def copy_tree(source, dest, build):
    """The source tree without builds and version control."""
    build_real = os.path.realpath(build)

    def ignore(d, names):
        skip = set()
        for n in names:
            p = os.path.join(d, n)
            if os.path.realpath(p) == build_real or n in ("__pycache__", ".git") or (
                    os.path.realpath(d) == os.path.realpath(source)
                    and (n.startswith("build") or n.startswith("."))
                    and n not in (".ci", ".gitignore")):
                skip.add(n)
        return skip

    shutil.copytree(source, dest, symlinks=True, ignore=ignore)


def environment(work):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("WS_") and k != "XDG_CONFIG_HOME"}
    env.update(HOME=os.path.join(work, "home"), TMPDIR=os.path.join(work, "tmp"))
    return env


def run_file(path, blocks, source, build, scratch, counts):
    runnable = [b for b in blocks if b.tag == RUN_TAG]
    if not runnable:
        return
    name = os.path.relpath(path, source).replace(os.sep, "_")
    work = os.path.join(scratch, name)
    copy_tree(source, os.path.join(work, "src"), build)
    os.symlink(os.path.abspath(build), os.path.join(work, "src", "build"))
    for d in ("home", "tmp"):
        os.makedirs(os.path.join(work, d))
    cwd = os.path.join(work, "src")
    for b in runnable:
        if b.skip is not None:
            counts["skipped"] += 1
            print(f"skip {b.where()}: {b.skip}", flush=True)
            continue
        missing = [old for old, _ in b.replacements if old not in b.text]
        if missing:
            counts["failed"] += 1
            print(f"FAIL {b.where()}: replace: {missing[0]!r} is not in the block "
                  "(did the command change?)", flush=True)
            continue
        t0 = time.monotonic()
        try:
            p = subprocess.run(["bash", "-c", script(b, os.path.join(work, "tmp") + "/")],
                               cwd=cwd, env=environment(work), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors="replace",
                               timeout=BLOCK_TIMEOUT)
            status, out = p.returncode, p.stdout
        except subprocess.TimeoutExpired as e:
            status = "timeout"
            out = (e.stdout or b"").decode(errors="replace") if isinstance(
                e.stdout, bytes) else (e.stdout or "")
            out += f"\ndoctest: killed after {BLOCK_TIMEOUT} s\n"
        dt = time.monotonic() - t0
        head = b.text.strip().split("\n")[0]
        notes = "".join(f" [replace {old!r} -> {new!r}]" for old, new in b.replacements)
        if b.exits != ["0"]:
            notes += f" [exit {','.join(b.exits)}]"
        if status == 0:
            counts["ran"] += 1
            print(f"ok   {b.where()} ({dt:.1f} s): {head}{notes}", flush=True)
        else:
            counts["failed"] += 1
            tail = "\n".join(out.rstrip().split("\n")[-60:])
            print(f"FAIL {b.where()} ({dt:.1f} s): {head}{notes}\n{tail}\n", flush=True)


def default_files(source):
    files = [os.path.join(source, "README.md")]
    files += sorted(glob.glob(os.path.join(source, "docs", "**", "*.md"), recursive=True))
    return [f for f in files if os.path.isfile(f)]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", help="the build directory the commands run against")
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="the source tree (default: this checkout)")
    ap.add_argument("--list", action="store_true",
                    help="only check the fences and list the blocks")
    ap.add_argument("files", nargs="*", help="Markdown files (default: README.md, docs/)")
    a = ap.parse_args(argv)
    if not a.list and not a.build:
        ap.error("--build is needed to run the commands")
    files = [os.path.abspath(f) for f in a.files] or default_files(a.source)
    parsed, errors = [], []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            blocks, errs = parse(os.path.relpath(f, a.source), fh.read())
        parsed.append((f, blocks))
        errors += errs
    for e in errors:
        print(f"ERROR {e}")
    others = {}
    for _, blocks in parsed:
        for b in blocks:
            if b.tag != RUN_TAG:
                others[b.tag] = others.get(b.tag, 0) + 1
    if a.list:
        for _, blocks in parsed:
            for b in blocks:
                kind = ("skip: " + b.skip if b.skip is not None else "run"
                        ) if b.tag == RUN_TAG else f"`{b.tag}`, not run"
                print(f"{b.where()}: {kind}")
        return 1 if errors else 0
    counts = {"ran": 0, "skipped": 0, "failed": 0}
    with tempfile.TemporaryDirectory(prefix="wsff-doc-commands-") as scratch:
        for f, blocks in parsed:
            run_file(f, blocks, a.source, a.build, scratch, counts)
    print(f"doctest: {counts['ran']} command blocks passed, {counts['failed']} failed, "
          f"{counts['skipped']} skipped; {len(errors)} errors in the fences; "
          f"{sum(others.values())} blocks not commands ("
          + ", ".join(f"{n} {t}" for t, n in sorted(others.items())) + ")")
    if counts["ran"] == 0 and not counts["failed"]:
        print("doctest: no command ran")
        return 1
    return 1 if counts["failed"] or errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
