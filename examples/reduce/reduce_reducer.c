/*
 * reduce_reducer — reduce (reduce.c) written with a reducer: the same loop
 * of spawns over the same chunks, but each task adds its chunk's sum into
 * a sum reducer instead of a slot of its own, and the parent reads the
 * reducer after the sync instead of adding the slots.  Its time against
 * reduce's is what a reducer costs (docs/benchmarks.md, "Reducers").
 */
#include <stdint.h>
#include <ws/ws.h>

#include "../common/bench.h"
#include "chunk_sum.h"

static void add_chunk(ws_reducer *sum, uint64_t lo, uint64_t hi, int rounds) {
  ws_reducer_sum_ulong(sum, chunk_sum(lo, hi, rounds));
}

static uint64_t reduce(uint64_t n, uint64_t chunks, int rounds) {
  unsigned long total = 0;
  ws_reducer sum;
  ws_reducer_register(&sum, &ws_monoid_sum_ulong, &total);
  uint64_t step = (n + chunks - 1) / chunks;
  for (uint64_t c = 0; c < chunks; c++) {
    uint64_t lo = c * step < n ? c * step : n;
    uint64_t hi = lo + step < n ? lo + step : n;
    ws_spawn_void(add_chunk, &sum, lo, hi, rounds);
  }
  ws_sync();
  ws_reducer_unregister(&sum);
  return total;
}

int main(int argc, char **argv) {
  static const bench_param params[] = {
      {"n", 1L << 22, 1L << 24, 1, 1L << 40},
      {"chunks", 1024, 4096, 1, 1L << 16},
      {"passes", 40, 40, 1, 100000},
      {"rounds", 4, 4, 1, 64},
  };
  long v[4];
  bench_args(argc, argv, params, 4, v);
  uint64_t n = (uint64_t)v[0], chunks = (uint64_t)v[1];
  long passes = v[2];
  int rounds = (int)v[3];

  bench_clock t0 = bench_start();
  uint64_t total = 0;
  for (long p = 0; p < passes; p++)
    total += reduce(n, chunks, rounds);
  bench_clock t = bench_stop(t0);

  uint64_t want = (uint64_t)passes * chunk_sum(0, n, rounds);
  printf("reduce_reducer(n=%lu, chunks=%lu, passes=%ld, rounds=%d) = %016llx\n",
         (unsigned long)n, (unsigned long)chunks, passes, rounds,
         (unsigned long long)total);
  if (total != want)
    bench_fail("reduce_reducer", "sum %016llx, expected %016llx",
               (unsigned long long)total, (unsigned long long)want);
  bench_time(t);
  return 0;
}
