/*
 * reduce_reducer with oneTBB parallel_reduce: the reduction a oneTBB user
 * writes for ../reduce_reducer.c.  The same chunks (a blocked_range over
 * them with grain 1, the default partitioner), each summed as there, the
 * partial sums joined by parallel_reduce.  TBB_NUM_THREADS sets the
 * threads (../../common/tbb_threads.h).
 */
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cstdint>
#include <functional>

#include "../../common/bench.h"
#include "../../common/tbb_threads.h"
#include "../chunk_sum.h"

static uint64_t reduce(uint64_t n, uint64_t chunks, int rounds) {
  uint64_t step = (n + chunks - 1) / chunks;
  return tbb::parallel_reduce(
      tbb::blocked_range<uint64_t>(0, chunks, 1), uint64_t(0),
      [&](const tbb::blocked_range<uint64_t> &cs, uint64_t s) {
        for (uint64_t c = cs.begin(); c != cs.end(); c++) {
          uint64_t lo = c * step < n ? c * step : n;
          uint64_t hi = lo + step < n ? lo + step : n;
          s += chunk_sum(lo, hi, rounds);
        }
        return s;
      },
      std::plus<uint64_t>());
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
  tbb_threads limit;

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
