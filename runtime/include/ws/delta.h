/*
 * ws/delta.h — delta, the thieves' bound on how many of the owner's take()
 * stores can still sit in its store buffer (paper 000 §4): with S the most
 * earlier stores a load can pass and x the fewest stores the owner makes
 * between two takes, delta = ceil(S / (x + 1)).  The one definition, used
 * by the runtime at start-up and by the passes (record, padding).
 */
#ifndef WS_DELTA_H
#define WS_DELTA_H

#include <stdint.h>

/* x: no path leads from one take to another, so any delta >= 1 is sound. */
#define WS_DELTA_X_UNBOUNDED 0xffffffffu

static inline uint64_t ws_delta(uint64_t S, uint32_t x) {
  if (x == WS_DELTA_X_UNBOUNDED)
    return 1;
  uint64_t d = (S + x) / ((uint64_t)x + 1);
  return d < 1 ? 1 : d;
}

/* The fewest stores between takes that make ws_delta(S, x) <= target
 * (padding): x + 1 >= S / target, at least 1 (the anti-coalescing store). */
static inline uint32_t ws_stores_for_delta(uint64_t S, uint64_t target) {
  if (target == 0)
    return 1;
  uint64_t x = (S + target - 1) / target - 1;
  return x < 1 ? 1 : (uint32_t)x;
}

#endif
