/*
 * salsa_cas.c — SALSA+CAS, the baseline of paper 002 §6.2: SALSA's chunks,
 * lists, chunk pools and producer-based balancing, but every consume and
 * every steal takes a single task with a CAS on its slot, and chunks are
 * never taken over.  Exactly-once: a slot goes from a task to TAKEN once.
 *
 * idx is a hint kept by whoever takes: every slot up to idx is TAKEN, so a
 * taker scans from idx + 1 past TAKEN slots.  Taking slot i means every slot
 * before it was TAKEN, so the one who takes the last slot ends the chunk.
 */
#include "salsa_core.h"

static ws_pool_task cas_take(ws_pool *p, int w, salsa_node *n) {
  salsa *s = p->impl;
  salsa_chunk *c = atomic_load_explicit(&n->chunk, ws_acquire);
  if (!c || atomic_load_explicit(&c->owner, ws_seq_cst) != n->owner)
    return WS_POOL_NONE; /* over: its finisher cleared n->chunk before */
  for (int64_t i = atomic_load_explicit(&n->idx, ws_relaxed) + 1;
       i < (int64_t)s->size; i++) {
    ws_pool_task t = atomic_load_explicit(&c->task[i], ws_acquire);
    if (t == WS_POOL_NONE)
      return WS_POOL_NONE;
    if (t == SALSA_TAKEN)
      continue;
    if (atomic_compare_exchange_strong_explicit(&c->task[i], &t, SALSA_TAKEN,
                                                ws_seq_cst, ws_acquire)) {
      /* A racy store is enough: any value written keeps "all slots up to
       * idx are TAKEN" true. */
      atomic_store_explicit(&n->idx, i, ws_relaxed);
      if (i + 1 == (int64_t)s->size) {
        atomic_store_explicit(&n->chunk, NULL, ws_release);
        salsa_finish_chunk(s, w, c);
      }
      return t;
    }
    /* Lost the slot to another consumer: it is TAKEN now, go on. */
  }
  return WS_POOL_NONE;
}

/* The owner's take: publish the chunk (hazard) first, since it works outside
 * the epoch guard; cas_take then checks that it is this life of the chunk. */
static ws_pool_task cas_take_own(ws_pool *p, int w, salsa_node *n) {
  salsa_chunk *c = atomic_load_explicit(&n->chunk, ws_relaxed);
  if (!c)
    return WS_POOL_NONE;
  salsa_protect(&((salsa *)p->impl)->cons[w], c);
  return cas_take(p, w, n);
}

static ws_pool_task cas_pool_take(ws_pool *p, int w) {
  return salsa_consume(p, w, cas_take_own);
}

/* One task from any node of the victim's pool (inside the epoch guard). */
static ws_pool_task cas_steal(ws_pool *p, int thief, int victim) {
  salsa *s = p->impl;
  salsa_consumer *vp = &s->cons[victim];
  int nl = s->slots + 1;
  unsigned start = (unsigned)(p->slot[thief].rng >> 33);
  for (int k = 0; k < nl; k++) {
    salsa_node *head = &vp->lists[(start + (unsigned)k) % (unsigned)nl];
    for (salsa_node *n = atomic_load_explicit(&head->next, ws_acquire); n;
         n = atomic_load_explicit(&n->next, ws_acquire)) {
      ws_pool_task t = cas_take(p, thief, n);
      if (t != WS_POOL_NONE)
        return t;
    }
  }
  return WS_POOL_NONE;
}

static int cas_is_empty(ws_pool *p, int slot, int q) {
  salsa *s = p->impl;
  salsa_consumer *vp = &s->cons[q];
  for (int l = 0; l <= s->slots; l++)
    for (salsa_node *n = atomic_load_explicit(&vp->lists[l].next, ws_acquire); n;
         n = atomic_load_explicit(&n->next, ws_acquire)) {
      salsa_chunk *c = atomic_load_explicit(&n->chunk, ws_acquire);
      if (!c || atomic_load_explicit(&c->owner, ws_acquire) != n->owner)
        continue;
      for (int64_t i = atomic_load_explicit(&n->idx, ws_relaxed) + 1;
           i < (int64_t)s->size; i++) {
        ws_pool_task t = atomic_load_explicit(&c->task[i], ws_acquire);
        if (t == WS_POOL_NONE)
          break;
        if (t != SALSA_TAKEN)
          return 0;
      }
    }
  return 1;
}

const ws_pool_ops ws_pool_salsa_cas = {
    .name = "salsa-cas",
    .exactly_once = 1,
    .producer_queues = 0,
    .init = salsa_init,
    .fini = salsa_fini,
    .put = salsa_put,
    .take = cas_pool_take,
    .steal = cas_steal,
    .is_empty = cas_is_empty,
    .guard_begin = salsa_guard_begin,
    .guard_end = salsa_guard_end,
};
