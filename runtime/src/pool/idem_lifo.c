/*
 * idem_lifo.c — Michael, Vechev, Saraswat, "Idempotent Work Stealing"
 * (PPoPP'09), the idempotent LIFO: a stack per slot whose owner and thieves
 * both remove from the top.  At-least-once: the owner's put and take are
 * plain loads and stores with no fence and no CAS; a thief removes with one
 * CAS on the anchor, and the owner's plain store may undo a thief's CAS, so
 * the thief's task is extracted again.  Nothing is ever lost.
 *
 * anchor = <tag:32, size:32>.  put bumps the tag: a thief that read the
 * anchor, then lost the race to a take followed by a put into the same slot,
 * must fail its CAS instead of removing the new task unseen.
 */
#include <stdlib.h>

#include "../worker.h"
#include "pool_impl.h"

typedef struct lifo {
  alignas(WS_CACHE_LINE) _Atomic uint64_t anchor; /* owner line, thieves CAS */
  _Atomic(ws_pool_task) *tasks;
  uint64_t cap;
} lifo;

static inline uint64_t pack(uint64_t tag, uint64_t size) {
  return tag << 32 | size;
}
static inline uint64_t size_of(uint64_t a) { return a & 0xffffffffULL; }
static inline uint64_t tag_of(uint64_t a) { return a >> 32; }

static lifo *queue(ws_pool *p, int q) { return (lifo *)p->impl + q; }

static void lifo_init(ws_pool *p) {
  lifo *qs = ws_pool_zalloc(sizeof *qs * (size_t)p->slots, "idem-lifo queues");
  for (int i = 0; i < p->slots; i++) {
    qs[i].cap = p->capacity;
    qs[i].tasks = ws_pool_zalloc(sizeof *qs[i].tasks * p->capacity,
                                 "an idem-lifo queue");
    atomic_init(&qs[i].anchor, 0);
  }
  p->impl = qs;
}

static void lifo_fini(ws_pool *p) {
  for (int i = 0; i < p->slots; i++)
    free(queue(p, i)->tasks);
  free(p->impl);
}

static void lifo_put(ws_pool *p, int slot, ws_pool_task t) {
  lifo *q = queue(p, slot);
  uint64_t a = atomic_load_explicit(&q->anchor, ws_relaxed);
  uint64_t n = size_of(a);
  if (ws_unlikely(n == q->cap))
    ws_fatal("idem-lifo pool: the queue of slot %d is full (%llu tasks); raise "
             "ws_pool_config.capacity",
             slot, (unsigned long long)q->cap);
  atomic_store_explicit(&q->tasks[n], t, ws_relaxed);
  /* Release: a thief that sees the new size sees the task (store-store). */
  atomic_store_explicit(&q->anchor, pack(tag_of(a) + 1, n + 1), ws_release);
}

static ws_pool_task lifo_take(ws_pool *p, int w) {
  lifo *q = queue(p, w);
  uint64_t a = atomic_load_explicit(&q->anchor, ws_relaxed);
  uint64_t n = size_of(a);
  if (n == 0)
    return WS_POOL_NONE;
  ws_pool_task t = atomic_load_explicit(&q->tasks[n - 1], ws_relaxed);
  /* A plain store, not a CAS: it may overwrite a thief's removal of the
   * same task, which then runs twice (the idempotent relaxation). */
  atomic_store_explicit(&q->anchor, pack(tag_of(a), n - 1), ws_relaxed);
  return t;
}

static ws_pool_task lifo_steal(ws_pool *p, int thief, int victim) {
  lifo *q = queue(p, victim);
  uint64_t a = atomic_load_explicit(&q->anchor, ws_acquire);
  uint64_t n = size_of(a);
  if (n == 0)
    return WS_POOL_NONE;
  /* Acquire above: the task read here is the one the anchor published. */
  ws_pool_task t = atomic_load_explicit(&q->tasks[n - 1], ws_relaxed);
  if (!atomic_compare_exchange_strong_explicit(
          &q->anchor, &a, pack(tag_of(a), n - 1), ws_seq_cst, ws_relaxed)) {
    p->slot[thief].c.aborts++;
    return WS_POOL_NONE;
  }
  return t;
}

static int lifo_is_empty(ws_pool *p, int slot, int q) {
  return size_of(atomic_load_explicit(&queue(p, q)->anchor, ws_acquire)) == 0;
}

const ws_pool_ops ws_pool_idem_lifo = {
    .name = "idem-lifo",
    .exactly_once = 0,
    .producer_queues = 1,
    .init = lifo_init,
    .fini = lifo_fini,
    .put = lifo_put,
    .take = lifo_take,
    .steal = lifo_steal,
    .is_empty = lifo_is_empty,
};
