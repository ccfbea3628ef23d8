#!/usr/bin/env bash
# Minimizes an input on which ws-lower-fuzzer fails, with llvm-reduce.
#
#   ws-fuzz-reduce.sh FUZZER INPUT > reduced.ll
#
# INPUT: a crash file (bitcode) or a .ll.  The fuzzer itself is the test,
# on its pipeline (!wsfuzz.pipeline in the module), so failures opt cannot
# show (invalid IR after an error diagnostic, where opt stops) reduce too.
# A reduction must fail the same way: the same verifier message, or the
# same kind of report with the same innermost wsff frame.
set -euo pipefail
if [ $# -ne 2 ]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
fuzzer=$(realpath "$1") input=$2
llvm=/usr/lib/llvm-19/bin
[ -x "$llvm/llvm-reduce" ] || llvm=$(dirname "$(command -v llvm-reduce)")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$llvm/llvm-dis" "$input" -o "$work/input.ll" 2>/dev/null || cp "$input" "$work/input.ll"

# How a run fails, in one line: empty when it does not.
cat >"$work/signature.sh" <<EOF
#!/usr/bin/env bash
"$fuzzer" "\$1" >"\$1.log" 2>&1 && exit 0
if grep -q "produced invalid IR" "\$1.log"; then
  grep -A1 -m1 "produced invalid IR" "\$1.log" | tail -1
else
  kind=\$(grep -m1 -oE "AddressSanitizer: [A-Za-z-]+|runtime error: [a-z ]+|Assertion .* failed|LLVM ERROR: .*|deadly signal|timeout" "\$1.log" || true)
  frame=\$(grep -m1 -oE " in (wsff|wsfuzz)::[^(]*" "\$1.log" || true)
  echo "\$kind\$frame"
fi
EOF
chmod +x "$work/signature.sh"
want=$("$work/signature.sh" "$work/input.ll")
if [ -z "$want" ]; then
  echo "ws-fuzz-reduce: the fuzzer does not fail on $input" >&2
  exit 1
fi
echo "ws-fuzz-reduce: reducing a failure: $want" >&2
printf '%s\n' "$want" >"$work/want"
cat >"$work/test.sh" <<EOF
#!/usr/bin/env bash
[ "\$("$work/signature.sh" "\$1")" = "\$(cat "$work/want")" ]
EOF
chmod +x "$work/test.sh"
"$llvm/llvm-reduce" --test="$work/test.sh" "$work/input.ll" -o "$work/reduced.ll" >&2
cat "$work/reduced.ll"
