/*
 * msq.c — WS-MSQ, a baseline of paper 002 §6.2: a Michael-Scott queue per
 * worker (Michael & Scott, PODC'96, with counted pointers).  A producer slot
 * enqueues into its home worker's queue; the owner dequeues its own queue,
 * a thief dequeues another.  Every operation is a CAS; exactly-once.
 *
 * Nodes are type-stable and named by 32-bit indices, so <tag:32, index+1:32>
 * fits one word: the tags make a CAS fail when a node was dequeued, freed
 * and reused between the read and the CAS.  Freed nodes go to one shared
 * Treiber free list.
 */
#include <stdlib.h>

#include "../worker.h"
#include "pool_impl.h"

#define SEG_BITS 12
#define SEG_SIZE (1u << SEG_BITS)
#define DIR_SIZE 4096 /* at most 16M nodes */

typedef struct msq_node {
  _Atomic uint64_t next; /* <tag, index+1> of the next node, 0 index: none */
  _Atomic(ws_pool_task) value;
  _Atomic uint32_t free_next; /* free list link: index+1, or 0 */
  uint32_t index;
} msq_node;

typedef struct msq_queue {
  alignas(WS_CACHE_LINE) _Atomic uint64_t head;
  alignas(WS_CACHE_LINE) _Atomic uint64_t tail;
} msq_queue;

typedef struct msq {
  msq_queue *q;
  alignas(WS_CACHE_LINE) _Atomic uint64_t free; /* <tag, index+1> */
  alignas(WS_CACHE_LINE) _Atomic uint32_t nnodes;
  _Atomic(msq_node *) dir[DIR_SIZE];
} msq;

static inline uint64_t ref(uint64_t tag, uint32_t index1) {
  return tag << 32 | index1;
}
static inline uint32_t idx1(uint64_t r) { return (uint32_t)r; }
static inline uint64_t tag_of(uint64_t r) { return r >> 32; }

static msq_node *node(msq *m, uint32_t index1) {
  uint32_t i = index1 - 1;
  msq_node *seg = atomic_load_explicit(&m->dir[i >> SEG_BITS], ws_acquire);
  return &seg[i & (SEG_SIZE - 1)];
}

static msq_node *new_node(msq *m) {
  uint32_t i = atomic_fetch_add_explicit(&m->nnodes, 1, ws_relaxed);
  if (i >= (uint32_t)DIR_SIZE * SEG_SIZE)
    ws_fatal("msq: more than %u tasks queued at once",
             (unsigned)DIR_SIZE * SEG_SIZE);
  _Atomic(msq_node *) *dir = &m->dir[i >> SEG_BITS];
  msq_node *seg = atomic_load_explicit(dir, ws_acquire);
  if (!seg) {
    msq_node *fresh = ws_pool_zalloc(sizeof *fresh * SEG_SIZE, "MS-queue nodes");
    for (uint32_t k = 0; k < SEG_SIZE; k++)
      fresh[k].index = (i & ~(SEG_SIZE - 1)) + k;
    if (atomic_compare_exchange_strong_explicit(dir, &seg, fresh, ws_acq_rel,
                                                ws_acquire))
      seg = fresh;
    else
      free(fresh);
  }
  return &seg[i & (SEG_SIZE - 1)];
}

static msq_node *alloc_node(msq *m) {
  uint64_t h = atomic_load_explicit(&m->free, ws_acquire);
  while (idx1(h)) {
    msq_node *n = node(m, idx1(h));
    uint32_t next = atomic_load_explicit(&n->free_next, ws_relaxed);
    if (atomic_compare_exchange_weak_explicit(&m->free, &h, ref(tag_of(h) + 1, next),
                                              ws_acquire, ws_acquire))
      return n;
  }
  return new_node(m);
}

static void free_node(msq *m, msq_node *n) {
  uint64_t h = atomic_load_explicit(&m->free, ws_relaxed);
  do
    atomic_store_explicit(&n->free_next, idx1(h), ws_relaxed);
  while (!atomic_compare_exchange_weak_explicit(
      &m->free, &h, ref(tag_of(h) + 1, n->index + 1), ws_release, ws_relaxed));
}

static void enqueue(msq *m, msq_queue *q, ws_pool_task v) {
  msq_node *n = alloc_node(m);
  atomic_store_explicit(&n->value, v, ws_relaxed);
  uint64_t old = atomic_load_explicit(&n->next, ws_relaxed);
  atomic_store_explicit(&n->next, ref(tag_of(old), 0), ws_relaxed);
  uint64_t tail;
  for (;;) {
    tail = atomic_load_explicit(&q->tail, ws_acquire);
    msq_node *last = node(m, idx1(tail));
    uint64_t next = atomic_load_explicit(&last->next, ws_acquire);
    if (tail != atomic_load_explicit(&q->tail, ws_acquire))
      continue;
    if (idx1(next) == 0) {
      if (atomic_compare_exchange_weak_explicit(&last->next, &next,
                                                ref(tag_of(next) + 1, n->index + 1),
                                                ws_release, ws_relaxed))
        break;
    } else { /* tail lags: help it along */
      atomic_compare_exchange_weak_explicit(&q->tail, &tail,
                                            ref(tag_of(tail) + 1, idx1(next)),
                                            ws_release, ws_relaxed);
    }
  }
  atomic_compare_exchange_strong_explicit(&q->tail, &tail,
                                          ref(tag_of(tail) + 1, n->index + 1),
                                          ws_release, ws_relaxed);
}

static ws_pool_task dequeue(msq *m, msq_queue *q) {
  for (;;) {
    uint64_t head = atomic_load_explicit(&q->head, ws_acquire);
    uint64_t tail = atomic_load_explicit(&q->tail, ws_acquire);
    msq_node *first = node(m, idx1(head));
    uint64_t next = atomic_load_explicit(&first->next, ws_acquire);
    if (head != atomic_load_explicit(&q->head, ws_acquire))
      continue;
    if (idx1(head) == idx1(tail)) {
      if (idx1(next) == 0)
        return WS_POOL_NONE;
      atomic_compare_exchange_weak_explicit(&q->tail, &tail,
                                            ref(tag_of(tail) + 1, idx1(next)),
                                            ws_release, ws_relaxed);
      continue;
    }
    ws_pool_task v = atomic_load_explicit(&node(m, idx1(next))->value, ws_relaxed);
    if (atomic_compare_exchange_weak_explicit(&q->head, &head,
                                              ref(tag_of(head) + 1, idx1(next)),
                                              ws_acq_rel, ws_relaxed)) {
      free_node(m, first); /* the old dummy; `next` is the dummy now */
      return v;
    }
  }
}

static void msq_init(ws_pool *p) {
  msq *m = ws_pool_zalloc(sizeof *m, "an MS-queue pool");
  m->q = ws_pool_zalloc(sizeof *m->q * (size_t)p->workers, "MS queues");
  for (int i = 0; i < p->workers; i++) {
    msq_node *dummy = new_node(m);
    atomic_init(&m->q[i].head, ref(0, dummy->index + 1));
    atomic_init(&m->q[i].tail, ref(0, dummy->index + 1));
  }
  p->impl = m;
}

static void msq_fini(ws_pool *p) {
  msq *m = p->impl;
  for (int d = 0; d < DIR_SIZE; d++)
    free(atomic_load_explicit(&m->dir[d], ws_relaxed));
  free(m->q);
  free(m);
}

static void msq_put(ws_pool *p, int slot, ws_pool_task t) {
  int home = slot < p->workers ? slot : (slot - p->workers) % p->workers;
  enqueue(p->impl, &((msq *)p->impl)->q[home], t);
}

static ws_pool_task msq_take(ws_pool *p, int w) {
  return dequeue(p->impl, &((msq *)p->impl)->q[w]);
}

static ws_pool_task msq_steal(ws_pool *p, int thief, int victim) {
  return dequeue(p->impl, &((msq *)p->impl)->q[victim]);
}

/* Empty when the dummy has no successor, read while head did not move. */
static int msq_is_empty(ws_pool *p, int slot, int qi) {
  msq *m = p->impl;
  msq_queue *q = &m->q[qi];
  for (;;) {
    uint64_t head = atomic_load_explicit(&q->head, ws_acquire);
    uint64_t next = atomic_load_explicit(&node(m, idx1(head))->next, ws_acquire);
    if (head == atomic_load_explicit(&q->head, ws_acquire))
      return idx1(next) == 0;
  }
}

const ws_pool_ops ws_pool_msq = {
    .name = "msq",
    .exactly_once = 1,
    .producer_queues = 0,
    .init = msq_init,
    .fini = msq_fini,
    .put = msq_put,
    .take = msq_take,
    .steal = msq_steal,
    .is_empty = msq_is_empty,
};
