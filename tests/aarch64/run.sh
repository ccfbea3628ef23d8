#!/bin/sh
# run.sh [--ignore <ERE>] <qemu-aarch64> <sysroot> <serial elision> <program> [args...]
# Runs the AArch64 serial elision once, then the program under
# qemu-aarch64 -cpu cortex-a53 (LL/SC atomics) and -cpu max (LSE) on 1, 2
# and 4 workers, and fails when a run's standard output (less the timing
# lines of examples/common/bench.h) differs from the elision's, or its
# status is not 0.  Nothing depends on a steal happening or on timing.
# --ignore: what the outputs may differ in (ws_for's grain, which depends
# on the worker count), deleted before comparing.
set -u
ignore='^$'
if [ "$1" = --ignore ]; then ignore=$2; shift 2; fi
qemu=$1 sysroot=$2 serial=$3 prog=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
limit=${WS_AARCH64_RUN_LIMIT:-240} # seconds a run may take under emulation

run() { # run <cpu> <out> <program> args...
  cpu=$1 out=$2
  shift 2
  timeout "$limit" "$qemu" -L "$sysroot" -cpu "$cpu" "$@" >"$out.raw" 2>"$out.err"
  st=$?
  grep -v -E '^(time|cpu): ' "$out.raw" | sed -E "s/$ignore//g" >"$out"
  return $st
}

if ! run max "$tmp/serial" "$serial" "$@"; then
  echo "run.sh: the serial elision failed ($st)"; cat "$tmp/serial.err"; exit 1
fi
failed=0
for cpu in cortex-a53 max; do
  for w in 1 2 4; do
    WS_NUM_WORKERS=$w
    export WS_NUM_WORKERS
    if ! run "$cpu" "$tmp/run" "$prog" "$@"; then
      echo "FAIL -cpu $cpu, $w workers: status $st"; cat "$tmp/run.err"; failed=1
    elif ! cmp -s "$tmp/serial" "$tmp/run"; then
      echo "FAIL -cpu $cpu, $w workers: output differs from the serial elision's"
      diff "$tmp/serial" "$tmp/run" | head -20; failed=1
    else
      echo "ok   -cpu $cpu, $w workers: $(head -c 200 "$tmp/run" | head -1)"
    fi
  done
done
exit $failed
