/*
 * chunk_sum.h — the summand of the reduce programs (reduce.c,
 * reduce_reducer.c, peers/reduce_reducer_tbb.cpp): a 64-bit hash of each
 * index (splitmix64's finaliser, Steele et al., OOPSLA'14), summed over a
 * chunk, so the sum wraps modulo 2^64 and the check is exact.
 *
 * chunk_sum is not inlined, and aligned to a cache line, in every version:
 * each then runs this loop as the same machine code at the same alignment,
 * and reducebench compares what the versions do around it rather than
 * where the linker put it (inlined, the same loop landed at different
 * offsets and one worker's time differed by 7.5 % on an Intel Xeon with 15
 * more instructions per chunk out of 270,000: docs/benchmarks.md,
 * "Reducers").
 */
#ifndef WS_EXAMPLES_CHUNK_SUM_H
#define WS_EXAMPLES_CHUNK_SUM_H

#include <stdint.h>

static inline uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

__attribute__((noinline, aligned(64))) static uint64_t chunk_sum(uint64_t lo, uint64_t hi,
                                                                 int rounds) {
  uint64_t s = 0;
  for (uint64_t i = lo; i < hi; i++) {
    uint64_t v = i;
    for (int r = 0; r < rounds; r++)
      v = mix(v);
    s += v;
  }
  return s;
}

#endif
