#!/bin/sh
# expect-output.sh EXPECTED COMMAND [ARG...]: runs COMMAND, which must exit
# 0 and print exactly the lines of file EXPECTED on stdout (the output of
# the same program built with clang's OpenMP and libomp).  Prints both
# outputs when they differ.
set -u
expected=$1
shift
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && cmp -s "$expected" "$tmp/out"; then
  exit 0
fi
echo "exit status $rc (expected 0); output against $expected:"
diff "$expected" "$tmp/out"
echo "--- stderr:"
cat "$tmp/err"
exit 1
