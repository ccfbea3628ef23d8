#!/usr/bin/env bash
# Runs ws-lower-fuzzer for a fixed time on seeds from llvm-stress.
#
#   ws-fuzz-run.sh FUZZER LLVM_STRESS DIR SECONDS [libFuzzer options...]
#
# DIR gets seeds/ (40 llvm-stress modules of 10 to 250 instructions),
# corpus/ (what the run found worth keeping; reused if DIR is) and
# crashes/ (failing inputs).  The exit status is 0 when nothing failed:
# the fuzzer's, or 1 when it saved a failing input yet exited 0.
# See docs/fuzzing.md for long runs.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
fuzzer=$1 stress=$2 dir=$3 seconds=$4
shift 4
mkdir -p "$dir/seeds" "$dir/corpus" "$dir/crashes"
for i in $(seq 1 40); do
  seed=$dir/seeds/stress-$i.ll
  [ -s "$seed" ] || "$stress" -seed="$i" -size=$((10 + i * 37 % 240)) -o "$seed"
done
before=$(ls "$dir/crashes" | wc -l)
# print<ws-storecount> writes to stdout (closed); reports go to stderr.
status=0
"$fuzzer" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 \
  -max_len=65536 -close_fd_mask=1 -print_final_stats=1 \
  -artifact_prefix="$dir/crashes/" "$@" "$dir/corpus" "$dir/seeds" || status=$?
# Under -fork=N -ignore_crashes=1 libFuzzer exits with its last job's
# status, 0 even when an earlier job failed: the saved inputs decide.
after=$(ls "$dir/crashes" | wc -l)
if [ "$after" -gt "$before" ]; then
  echo "ws-fuzz-run: $((after - before)) new failing input(s) in $dir/crashes/:" >&2
  ls -t "$dir/crashes" | head -n $((after - before)) | sed 's/^/  /' >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
