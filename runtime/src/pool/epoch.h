/*
 * epoch.h — epoch-based reclamation (Fraser, "Practical lock-freedom", 2004)
 * for SALSA's list nodes, which thieves read in other consumers' lists while
 * their owner unlinks and frees them.  Only slow paths pay: a thread
 * announces itself (one fence) around a whole steal pass or emptiness scan,
 * never around its own consumes.
 *
 * A node unlinked and then stamped with epoch e may be freed once the global
 * epoch reaches e + 2: the epoch advances only when every announced thread
 * has seen the current one, so by then everyone who could still hold the
 * node has left.
 */
#ifndef WS_POOL_EPOCH_H
#define WS_POOL_EPOCH_H

#include <stdalign.h>
#include <stdint.h>

#include "../atomics.h"

typedef struct ws_epoch_slot {
  alignas(WS_CACHE_LINE) _Atomic uint64_t announce; /* 0, or epoch << 1 | 1 */
} ws_epoch_slot;

typedef struct ws_epoch {
  alignas(WS_CACHE_LINE) _Atomic uint64_t global;
  int n;
  ws_epoch_slot *slot;
} ws_epoch;

void ws_epoch_init(ws_epoch *e, int nslots);
void ws_epoch_fini(ws_epoch *e);

static inline void ws_epoch_enter(ws_epoch *e, int s) {
  uint64_t g = atomic_load_explicit(&e->global, ws_relaxed);
  /* Fenced: the reads of the lists that follow must not pass it. */
  WS_STORE_FENCED(&e->slot[s].announce, g << 1 | 1);
}

static inline void ws_epoch_exit(ws_epoch *e, int s) {
  atomic_store_explicit(&e->slot[s].announce, 0, ws_release);
}

/* The stamp for nodes unlinked before the call. */
uint64_t ws_epoch_stamp(ws_epoch *e);
/* Advances the epoch if every announced thread is in the current one;
 * returns the epoch now. */
uint64_t ws_epoch_advance(ws_epoch *e);

static inline int ws_epoch_safe(uint64_t stamp, uint64_t now) {
  return now >= stamp + 2;
}

#endif
