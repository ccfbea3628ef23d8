#!/bin/sh
# expect_steals.sh RUNS PROGRAM [ARGS...]
# Runs PROGRAM with two workers and WS_STATS=1 until RUNS runs have counted,
# and fails unless every counted run stole at least one task.  A liveness
# check, not a timing: a thief that never gets work leaves a correct result
# and a one-worker run (jacobi on `split` did that in 7 of 8 runs before the
# scheduler's WS_WAKE_ROUNDS), which no other test would notice.  Such a
# thief looks, finds nothing and sleeps (sleeps > 0).  A run with neither a
# steal nor a sleep says nothing: on a loaded machine the thief's thread
# was not scheduled before the program ended.  It does not count, up to
# 10 * RUNS attempts.
runs=$1
shift
i=0
tries=0
while [ "$i" -lt "$runs" ]; do
  tries=$((tries + 1))
  if [ "$tries" -gt $((10 * runs)) ]; then
    echo "expect_steals: in $((tries - 1)) runs of $* the thief ran in only $i"
    exit 1
  fi
  err=$(WS_NUM_WORKERS=2 WS_STATS=1 "$@" 2>&1 >/dev/null) || {
    echo "expect_steals: $* failed (run $tries):"
    echo "$err"
    exit 1
  }
  line=$(printf '%s\n' "$err" | grep '^ws: variant=')
  steals=$(printf '%s\n' "$line" | sed -n 's/.* steals=\([0-9]*\) .*/\1/p')
  sleeps=$(printf '%s\n' "$line" | sed -n 's/.* sleeps=\([0-9]*\) .*/\1/p')
  if [ -z "$steals" ] || [ -z "$sleeps" ]; then
    echo "expect_steals: no WS_STATS line from $* (run $tries):"
    echo "$err"
    exit 1
  fi
  if [ "$steals" -eq 0 ] && [ "$sleeps" -eq 0 ]; then
    echo "run $tries: steals=0 sleeps=0: the thief did not run; not counted"
    continue
  fi
  if [ "$steals" -eq 0 ]; then
    echo "expect_steals: run $tries of $*: the thief ran and slept, but no task was stolen with two workers"
    echo "$err"
    exit 1
  fi
  i=$((i + 1))
  echo "run $tries: steals=$steals"
done
