/*
 * salsa.c — SALSA (paper 002 §5, Alg. 5): a consumer takes tasks from chunks
 * it owns with no CAS; a thief takes a whole chunk over with one CAS on its
 * owner word, then takes one task from it, with a second CAS only on the slot
 * its victim may also be taking.  Exactly-once.
 *
 * Memory order (§6.1): on x86-TSO the consumer's idx++ could be delayed past
 * its second look at the owner, and a thief that took the chunk over in
 * between would not see that the slot is taken.  We make idx++ a fenced store
 * (one xchg per task; the paper instead has thieves displace the consumer's
 * thread, Dice et al.).  The fast path has no CAS but does have this fence.
 */
#include "salsa_core.h"

static ws_pool_task salsa_take(ws_pool *p, int w, salsa_node *n) {
  salsa *s = p->impl;
  salsa_chunk *c = atomic_load_explicit(&n->chunk, ws_relaxed);
  if (!c)
    return WS_POOL_NONE;
  salsa_protect(&s->cons[w], c);
  uint64_t mine = n->owner;
  int64_t i = atomic_load_explicit(&n->idx, ws_relaxed) + 1;
  /* Read the task before looking at the owner: a task inserted after a
   * thief took the chunk over must be left to the thief (§5.3). */
  ws_pool_task t = i < (int64_t)s->size
                       ? atomic_load_explicit(&c->task[i], ws_acquire)
                       : WS_POOL_NONE;
  if (atomic_load_explicit(&c->owner, ws_seq_cst) != mine) {
    atomic_store_explicit(&n->chunk, NULL, ws_relaxed); /* stolen or over */
    return WS_POOL_NONE;
  }
  if (t == WS_POOL_NONE)
    return WS_POOL_NONE;
  WS_POOL_TEST_POINT("salsa-take-read");
  WS_STORE_FENCED(&n->idx, i); /* tell thieves slot i is ours (§6.1) */
  WS_POOL_TEST_POINT("salsa-take-announced");
  if (atomic_load_explicit(&c->owner, ws_seq_cst) == mine) {
    /* Any thief that takes the chunk from here on sees idx = i. */
    if (i + 1 == (int64_t)s->size) {
      atomic_store_explicit(&n->chunk, NULL, ws_relaxed);
      salsa_finish_chunk(s, w, c);
    }
    return t;
  }
  /* Taken over between the two looks: the thief may have read the old idx
   * and go for slot i too.  One CAS decides; this node is done either way. */
  ws_pool_task expect = t;
  int won = t != SALSA_TAKEN &&
            atomic_compare_exchange_strong_explicit(&c->task[i], &expect, SALSA_TAKEN,
                                                    ws_seq_cst, ws_relaxed);
  atomic_store_explicit(&n->chunk, NULL, ws_relaxed);
  if (won && i + 1 == (int64_t)s->size)
    salsa_finish_chunk(s, w, c);
  return won ? t : WS_POOL_NONE;
}

static ws_pool_task salsa_pool_take(ws_pool *p, int w) {
  return salsa_consume(p, w, salsa_take);
}

/* A node of `victim` that owns its chunk and has a task after idx. */
static salsa_node *stealable(salsa *s, int victim, unsigned start) {
  salsa_consumer *vp = &s->cons[victim];
  int nl = s->slots + 1;
  for (int k = 0; k < nl; k++) {
    salsa_node *head = &vp->lists[(start + (unsigned)k) % (unsigned)nl];
    for (salsa_node *n = atomic_load_explicit(&head->next, ws_acquire); n;
         n = atomic_load_explicit(&n->next, ws_acquire)) {
      salsa_chunk *c = atomic_load_explicit(&n->chunk, ws_acquire);
      if (!c || atomic_load_explicit(&c->owner, ws_acquire) != n->owner)
        continue;
      int64_t i = atomic_load_explicit(&n->idx, ws_acquire) + 1;
      if (i < (int64_t)s->size &&
          atomic_load_explicit(&c->task[i], ws_acquire) != WS_POOL_NONE)
        return n;
    }
  }
  return NULL;
}

/* steal() of Alg. 5, inside the epoch guard.  The victim's node is left for
 * the victim to unlink; our node goes to our steal list after the CAS (the
 * paper links the victim's node first, so that a thief that stalls here
 * leaves the chunk findable; here a stalled thief is an active worker and
 * holds up termination until it goes on). */
static ws_pool_task salsa_steal(ws_pool *p, int thief, int victim) {
  salsa *s = p->impl;
  salsa_node *n = stealable(s, victim, (unsigned)(p->slot[thief].rng >> 33));
  if (!n)
    return WS_POOL_NONE;
  salsa_chunk *c = atomic_load_explicit(&n->chunk, ws_acquire);
  if (!c)
    return WS_POOL_NONE;
  uint64_t theirs = n->owner;
  int64_t prev = atomic_load_explicit(&n->idx, ws_acquire);
  if (prev + 1 >= (int64_t)s->size ||
      atomic_load_explicit(&c->task[prev + 1], ws_acquire) == WS_POOL_NONE)
    return WS_POOL_NONE;
  WS_POOL_TEST_POINT("salsa-steal-snapshot");
  uint64_t mine = salsa_owner(salsa_tag(theirs) + 1, thief);
  /* The tag makes this fail if the chunk changed hands since n became its
   * node, even if it came back to the same victim (ABA, §5.3). */
  if (!atomic_compare_exchange_strong_explicit(&c->owner, &theirs, mine,
                                               ws_seq_cst, ws_relaxed)) {
    p->slot[thief].c.aborts++;
    return WS_POOL_NONE;
  }
  /* From here the victim takes at most one more task, slot idx + 1, and
   * only with a CAS. */
  int64_t idx = atomic_load_explicit(&n->idx, ws_seq_cst);
  if (idx + 1 == (int64_t)s->size)
    return WS_POOL_NONE; /* it announced the last slot: it ends the chunk */
  ws_pool_task t = atomic_load_explicit(&c->task[idx + 1], ws_acquire);
  if (t != WS_POOL_NONE)
    idx++; /* keep idx monotonic: the victim may have claimed slot idx */
  salsa_node *m = salsa_adopt_stolen(s, thief, c, idx, mine);
  p->slot[thief].c.chunk_steals++;
  WS_POOL_TEST_POINT("salsa-steal-claimed");
  ws_pool_task got = WS_POOL_NONE;
  if (t != WS_POOL_NONE) {
    ws_pool_task expect = t;
    if (t != SALSA_TAKEN &&
        atomic_compare_exchange_strong_explicit(&c->task[idx], &expect, SALSA_TAKEN,
                                                ws_seq_cst, ws_relaxed))
      got = t;
    if (idx + 1 == (int64_t)s->size) {
      atomic_store_explicit(&m->chunk, NULL, ws_relaxed);
      if (got != WS_POOL_NONE)
        salsa_finish_chunk(s, thief, c);
    }
  }
  if (atomic_load_explicit(&m->chunk, ws_relaxed))
    s->cons[thief].current = m;
  return got;
}

static int salsa_is_empty(ws_pool *p, int slot, int q) {
  return stealable(p->impl, q, 0) == NULL;
}

const ws_pool_ops ws_pool_salsa = {
    .name = "salsa",
    .exactly_once = 1,
    .producer_queues = 0,
    .init = salsa_init,
    .fini = salsa_fini,
    .put = salsa_put,
    .take = salsa_pool_take,
    .steal = salsa_steal,
    .is_empty = salsa_is_empty,
    .guard_begin = salsa_guard_begin,
    .guard_end = salsa_guard_end,
};
