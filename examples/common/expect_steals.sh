#!/bin/sh
# expect_steals.sh RUNS PROGRAM [ARGS...]
# Runs PROGRAM RUNS times with two workers and WS_STATS=1 and fails unless
# every run stole at least one task.  A liveness check, not a timing: a
# thief that never gets work leaves a correct result and a one-worker run
# (jacobi on `split` did that in 7 of 8 runs before the scheduler's
# WS_WAKE_ROUNDS), which no other test would notice.
runs=$1
shift
i=1
while [ "$i" -le "$runs" ]; do
  err=$(WS_NUM_WORKERS=2 WS_STATS=1 "$@" 2>&1 >/dev/null) || {
    echo "expect_steals: $* failed (run $i):"
    echo "$err"
    exit 1
  }
  steals=$(printf '%s\n' "$err" | sed -n 's/^ws: variant=.* steals=\([0-9]*\) .*/\1/p')
  if [ -z "$steals" ]; then
    echo "expect_steals: no WS_STATS line from $* (run $i):"
    echo "$err"
    exit 1
  fi
  if [ "$steals" -eq 0 ]; then
    echo "expect_steals: run $i of $*: no task stolen with two workers"
    echo "$err"
    exit 1
  fi
  echo "run $i: steals=$steals"
  i=$((i + 1))
done
