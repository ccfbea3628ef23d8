/*
 * reduce — a reduction written as a loop of spawns: the parent walks the
 * chunks of a range, spawns one task per chunk with its result going to
 * its own slot, syncs once, and adds the slots.  The shape a user writes
 * before meeting ws_for (docs/language.md, "Spawns anywhere"); every
 * iteration's task has its own descriptor and deque slot, so up to
 * `chunks` spawns are outstanding at once.
 *
 * The summand is a 64-bit hash of the index (splitmix64's finaliser,
 * Steele et al., OOPSLA'14), so the sum wraps modulo 2^64 and the check is
 * exact: a task run twice or lost changes it.  The serial loop that checks
 * it runs outside the timed region.
 */
#include <stdint.h>
#include <ws/ws.h>

#include "../common/bench.h"
#include "chunk_sum.h"

/* Every pass reduces the whole range again, so the loop of spawns and its
 * sync run `passes` times. */
static uint64_t reduce(uint64_t n, uint64_t chunks, int rounds, uint64_t *part) {
  uint64_t step = (n + chunks - 1) / chunks;
  for (uint64_t c = 0; c < chunks; c++) {
    uint64_t lo = c * step < n ? c * step : n;
    uint64_t hi = lo + step < n ? lo + step : n;
    ws_spawn(part[c], chunk_sum, lo, hi, rounds);
  }
  ws_sync();
  uint64_t s = 0;
  for (uint64_t c = 0; c < chunks; c++)
    s += part[c];
  return s;
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
  uint64_t *part = malloc(chunks * sizeof *part);
  if (!part)
    bench_fail("reduce", "out of memory for %lu partial sums", (unsigned long)chunks);

  bench_clock t0 = bench_start();
  uint64_t total = 0;
  for (long p = 0; p < passes; p++)
    total += reduce(n, chunks, rounds, part);
  bench_clock t = bench_stop(t0);

  uint64_t want = (uint64_t)passes * chunk_sum(0, n, rounds);
  printf("reduce(n=%lu, chunks=%lu, passes=%ld, rounds=%d) = %016llx\n",
         (unsigned long)n, (unsigned long)chunks, passes, rounds,
         (unsigned long long)total);
  if (total != want)
    bench_fail("reduce", "sum %016llx, expected %016llx", (unsigned long long)total,
               (unsigned long long)want);
  free(part);
  bench_time(t);
  return 0;
}
