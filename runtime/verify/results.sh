#!/bin/sh
# Regenerates the results tables of docs/verification.md.
#
#   runtime/verify/results.sh BUILD_DIR         the ctest matrix (label verify)
#   runtime/verify/results.sh BUILD_DIR large   the larger configuration
#
# Prints one markdown row per run of ws-verify, from its summary line.
set -eu
build=${1:?usage: results.sh BUILD_DIR [large]}
verify="$build/bin/ws-verify"
[ -x "$verify" ] || { echo "results.sh: no $verify; build first" >&2; exit 2; }

rows() {
  awk '
    # The weak-memory runs and the TSO plain-peek runs have their own
    # section in docs/verification.md ("Weak memory").
    / expect=[a-z-]+: / && !/memory=weak/ && !/no-fenced-peek/ {
      sub(/^[0-9]+: /, "")
      split($0, halves, ": ")
      n = split(halves[1], f, " ")
      v = f[1]; flags = ""
      for (i = 2; i <= n; i++) {
        split(f[i], kv, "=")
        if (kv[2] == "") { flags = flags " " kv[1]; continue }
        a[kv[1]] = kv[2]
      }
      split(halves[2], r, ", ")
      sub(/ states/, "", r[2]); sub(/ s$/, "", r[5])
      printf "| %s%s | %s | %s | %s | %s | %s | %s x %s | %s | %s | %s | %s |\n",
             v, flags, a["buffer"], a["S"], a["x"], a["delta"], a["script"],
             a["thieves"], a["steals"], a["expect"], r[1], r[2], r[5]
    }'
}

echo "| variant | buffer | S | x | δ | script | thieves x steals | expected | result | states | seconds |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
if [ "${2:-}" = large ]; then
  # Two thieves that steal twice each, five tasks; every fence-free variant
  # at its bound (x counts the take's own store: the anti-coalescing store,
  # THEP's echo).
  # The fence-free variants with a model: rows of ws/variants.def
  # (name, id, fence_free, model, ...).  FF-MB's thieves trust the bound
  # only at a validated S: --delta=bound checks that path.
  def="$(dirname "$0")/../include/ws/variants.def"
  variants=$(awk -F'[(, ]+' '/^WS_VARIANT\(/ && $4 == 1 && $5 == 1 { print $2 }' "$def")
  for S in 1 2 3 4; do
    for x in 1 2 3; do
      for v in $variants; do
        extra=""
        [ "$v" = ffmb ] && extra="--delta=bound"
        "$verify" --variant=$v --S=$S --x=$x --tasks=5 --thieves=2 --steals=2 \
          $extra --quiet --expect=safe || true
      done
    done
  done | rows
else
  (cd "$build" && ctest -L verify -V) | rows
fi
