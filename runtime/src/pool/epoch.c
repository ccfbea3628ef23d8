/* epoch.c — the slow half of epoch-based reclamation (epoch.h). */
#include <stdlib.h>

#include "epoch.h"
#include "pool_impl.h"

void ws_epoch_init(ws_epoch *e, int nslots) {
  atomic_init(&e->global, 1);
  e->n = nslots;
  e->slot = ws_pool_zalloc(sizeof *e->slot * (size_t)nslots, "epoch slots");
}

void ws_epoch_fini(ws_epoch *e) { free(e->slot); }

uint64_t ws_epoch_stamp(ws_epoch *e) {
  /* The unlinking stores must be visible before the epoch is read: a store
   * may pass a later load on TSO. */
  atomic_thread_fence(ws_seq_cst);
  return atomic_load_explicit(&e->global, ws_seq_cst);
}

uint64_t ws_epoch_advance(ws_epoch *e) {
  uint64_t g = atomic_load_explicit(&e->global, ws_seq_cst);
  for (int i = 0; i < e->n; i++) {
    uint64_t a = atomic_load_explicit(&e->slot[i].announce, ws_seq_cst);
    if ((a & 1) && (a >> 1) != g)
      return g;
  }
  if (atomic_compare_exchange_strong_explicit(&e->global, &g, g + 1, ws_seq_cst,
                                              ws_seq_cst))
    return g + 1;
  return g; /* someone else advanced it: g holds the new value */
}
