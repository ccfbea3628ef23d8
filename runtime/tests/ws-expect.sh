#!/bin/sh
# ws-expect.sh — run a command, then check its exit status and its output.
# (ctest's PASS_REGULAR_EXPRESSION alone would ignore the exit status.)
#
#   ws-expect.sh [--status N] [--stderr ERE] [--stderr-first ERE]
#                [--stderr-lines N] [--stdout ERE] [--stdout-lines N]
#                [--or-success ERE] -- COMMAND [ARG...]
#
#   --status N          exit status N (default 0)
#   --stderr ERE        some line of stderr matches ERE (grep -E); repeatable
#   --stderr-first ERE  the first line of stderr matches ERE
#   --stderr-lines N    stderr has exactly N lines
#   --stdout ERE        some line of stdout matches ERE; repeatable
#   --stdout-lines N    stdout has exactly N lines (0: the program ran nothing)
#   --or-success ERE    also accept success: status 0, nothing on stderr and
#                       a line of stdout matching ERE (for a limit a run may
#                       or may not reach: either it succeeds or it stops with
#                       the checked message, never anything else)
#
# Set the environment with `env VAR=VALUE COMMAND`.  Exits 0 when every
# check holds, else 1 after printing what differed and both outputs.
set -u

usage() {
  echo "usage: ws-expect.sh [--status N] [--stderr ERE] [--stderr-first ERE]" \
       "[--stderr-lines N] [--stdout ERE] [--stdout-lines N]" \
       "[--or-success ERE] -- COMMAND..." >&2
  exit 2
}

status=0 stderr_re= stderr_first= stderr_lines= stdout_re= stdout_lines= or_success=
while [ $# -gt 0 ]; do
  case $1 in
    --) shift; break ;;
    --status|--stderr|--stderr-first|--stderr-lines|--stdout|--stdout-lines|--or-success)
      [ $# -ge 2 ] || usage ;;
    *) usage ;;
  esac
  case $1 in
    --status) status=$2 ;;
    --stderr) stderr_re="$stderr_re$2
" ;;
    --stderr-first) stderr_first=$2 ;;
    --stderr-lines) stderr_lines=$2 ;;
    --stdout) stdout_re="$stdout_re$2
" ;;
    --stdout-lines) stdout_lines=$2 ;;
    --or-success) or_success=$2 ;;
  esac
  shift 2
done
[ $# -gt 0 ] || usage

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$@" >"$tmp/out" 2>"$tmp/err"
rc=$?

if [ -n "$or_success" ] && [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] &&
   grep -Eq -- "$or_success" "$tmp/out"; then
  exit 0
fi

failed=0
complain() {
  echo "ws-expect: $*"
  failed=1
}
lines() { wc -l <"$1" | tr -d ' '; }

[ "$rc" -eq "$status" ] || complain "exit status $rc, expected $status"
# Each of the newline-separated patterns must match some line of the file.
match_each() {
  printf '%s' "$2" | while IFS= read -r re; do
    grep -Eq -- "$re" "$1" || echo "ws-expect: no line of $3 matches /$re/"
  done
}
unmatched=$(match_each "$tmp/err" "$stderr_re" stderr; match_each "$tmp/out" "$stdout_re" stdout)
if [ -n "$unmatched" ]; then
  echo "$unmatched"
  failed=1
fi
if [ -n "$stderr_first" ] && ! head -n 1 "$tmp/err" | grep -Eq -- "$stderr_first"; then
  complain "the first line of stderr does not match /$stderr_first/"
fi
if [ -n "$stderr_lines" ] && [ "$(lines "$tmp/err")" -ne "$stderr_lines" ]; then
  complain "stderr has $(lines "$tmp/err") lines, expected $stderr_lines"
fi
if [ -n "$stdout_lines" ] && [ "$(lines "$tmp/out")" -ne "$stdout_lines" ]; then
  complain "stdout has $(lines "$tmp/out") lines, expected $stdout_lines"
fi

if [ "$failed" -ne 0 ]; then
  echo "--- command: $*"
  echo "--- stdout:"
  cat "$tmp/out"
  echo "--- stderr:"
  cat "$tmp/err"
  exit 1
fi
exit 0
