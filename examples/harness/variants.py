"""variants — the deque variants of runtime/include/ws/variants.def, for the
scripts: the table is the one list, so a new row needs no script edited.

  rows()     Variant(name, id, fence_free, model, take_stores,
             publishes_tail, validated_only, summary) per row, in id order
  names()    the rows' names, in id order
  default()  (variant, fenced): WS_DEFAULT_VARIANT's, the default deque and
             the runtime's default without bounded TSO
"""
import collections
import os
import re

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "runtime", "include", "ws", "variants.def")

Variant = collections.namedtuple(
    "Variant", "name id fence_free model take_stores publishes_tail "
               "validated_only summary")

_ROW = re.compile(r'^WS_VARIANT\((\w+), *(\d+), *([01]), *([01]), *(\d+), *([01]), '
                  r'*([01]), *"(.*)"\)\s*$')
_DEFAULT = re.compile(r"^WS_DEFAULT_VARIANT\((\w+), *(\w+)\)\s*$")


def _lines(prefix):
    with open(TABLE) as f:
        return [line for line in f if line.startswith(prefix)]


def rows():
    out = []
    for line in _lines("WS_VARIANT("):
        m = _ROW.match(line)
        if not m:
            raise ValueError(f"{TABLE}: cannot read the row: {line.strip()}")
        name, summary = m.group(1), m.group(8)
        ident, ff, model, stores, pub, val = (int(g) for g in m.groups()[1:7])
        out.append(Variant(name, ident, ff == 1, model == 1, stores, pub == 1,
                           val == 1, summary))
    if not out:
        raise ValueError(f"{TABLE}: no WS_VARIANT rows")
    return out


def names():
    return [v.name for v in rows()]


def default():
    found = [_DEFAULT.match(line) for line in _lines("WS_DEFAULT_VARIANT(")]
    if len(found) != 1 or not found[0]:
        raise ValueError(f"{TABLE}: expected one WS_DEFAULT_VARIANT(name, fenced) line")
    return found[0].group(1), found[0].group(2)
