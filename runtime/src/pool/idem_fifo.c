/*
 * idem_fifo.c — Michael, Vechev, Saraswat, "Idempotent Work Stealing"
 * (PPoPP'09), the idempotent double-ended queue ("double-ended FIFO" in paper
 * 000 §8.2): the owner puts and takes at the tail, thieves steal at the head,
 * and the last task can go to both.  At-least-once: the owner's operations
 * are plain loads and stores with no fence and no CAS; a thief moves the head
 * with one CAS, which the owner's next plain store of the anchor may undo,
 * so a stolen task can be extracted again.  Nothing is ever lost.
 *
 * anchor = <tag:21, size:22, head:21> in one word, so the thief's CAS checks
 * all three.  put bumps the tag: after the owner empties the queue and puts
 * again, a slot a thief already read may hold a new task, and that thief's
 * CAS must fail rather than skip the new task.
 */
#include <stdlib.h>

#include "../worker.h"
#include "pool_impl.h"

#define HEAD_BITS 21
#define SIZE_BITS 22
#define MAX_CAP (1ULL << HEAD_BITS)
#define HEAD_MASK (MAX_CAP - 1)
#define SIZE_MASK ((1ULL << SIZE_BITS) - 1)

typedef struct dequeue {
  alignas(WS_CACHE_LINE) _Atomic uint64_t anchor;
  _Atomic(ws_pool_task) *tasks;
  uint64_t mask; /* capacity - 1; capacity is a power of two <= MAX_CAP */
} dequeue;

static inline uint64_t pack(uint64_t tag, uint64_t size, uint64_t head) {
  return tag << (HEAD_BITS + SIZE_BITS) | size << HEAD_BITS | head;
}
static inline uint64_t head_of(uint64_t a) { return a & HEAD_MASK; }
static inline uint64_t size_of(uint64_t a) { return a >> HEAD_BITS & SIZE_MASK; }
static inline uint64_t tag_of(uint64_t a) { return a >> (HEAD_BITS + SIZE_BITS); }

static dequeue *queue(ws_pool *p, int q) { return (dequeue *)p->impl + q; }

static void fifo_init(ws_pool *p) {
  if (p->capacity > MAX_CAP)
    ws_fatal("idem-fifo: capacity %zu is too large: at most %llu tasks per "
             "queue (head, size and tag share one 64-bit anchor)",
             p->capacity, (unsigned long long)MAX_CAP);
  dequeue *qs = ws_pool_zalloc(sizeof *qs * (size_t)p->slots, "idem-fifo queues");
  for (int i = 0; i < p->slots; i++) {
    qs[i].mask = p->capacity - 1;
    qs[i].tasks = ws_pool_zalloc(sizeof *qs[i].tasks * p->capacity,
                                 "an idem-fifo queue");
    atomic_init(&qs[i].anchor, 0);
  }
  p->impl = qs;
}

static void fifo_fini(ws_pool *p) {
  for (int i = 0; i < p->slots; i++)
    free(queue(p, i)->tasks);
  free(p->impl);
}

static void fifo_put(ws_pool *p, int slot, ws_pool_task t) {
  dequeue *q = queue(p, slot);
  uint64_t a = atomic_load_explicit(&q->anchor, ws_relaxed);
  uint64_t h = head_of(a), s = size_of(a);
  if (ws_unlikely(s > q->mask))
    ws_fatal("idem-fifo pool: the queue of slot %d is full (%llu tasks); raise "
             "ws_pool_config.capacity",
             slot, (unsigned long long)(q->mask + 1));
  atomic_store_explicit(&q->tasks[(h + s) & q->mask], t, ws_relaxed);
  atomic_store_explicit(&q->anchor, pack(tag_of(a) + 1, s + 1, h), ws_release);
}

static ws_pool_task fifo_take(ws_pool *p, int w) {
  dequeue *q = queue(p, w);
  uint64_t a = atomic_load_explicit(&q->anchor, ws_relaxed);
  uint64_t h = head_of(a), s = size_of(a);
  if (s == 0)
    return WS_POOL_NONE;
  ws_pool_task t = atomic_load_explicit(&q->tasks[(h + s - 1) & q->mask], ws_relaxed);
  /* Plain store: may put back a head a thief just advanced (idempotence). */
  atomic_store_explicit(&q->anchor, pack(tag_of(a), s - 1, h), ws_relaxed);
  return t;
}

static ws_pool_task fifo_steal(ws_pool *p, int thief, int victim) {
  dequeue *q = queue(p, victim);
  uint64_t a = atomic_load_explicit(&q->anchor, ws_acquire);
  uint64_t h = head_of(a), s = size_of(a);
  if (s == 0)
    return WS_POOL_NONE;
  ws_pool_task t = atomic_load_explicit(&q->tasks[h & q->mask], ws_relaxed);
  uint64_t next = pack(tag_of(a), s - 1, (h + 1) & q->mask);
  if (!atomic_compare_exchange_strong_explicit(&q->anchor, &a, next, ws_seq_cst,
                                               ws_relaxed)) {
    p->slot[thief].c.aborts++;
    return WS_POOL_NONE;
  }
  return t;
}

static int fifo_is_empty(ws_pool *p, int slot, int q) {
  return size_of(atomic_load_explicit(&queue(p, q)->anchor, ws_acquire)) == 0;
}

const ws_pool_ops ws_pool_idem_fifo = {
    .name = "idem-fifo",
    .exactly_once = 0,
    .producer_queues = 1,
    .init = fifo_init,
    .fini = fifo_fini,
    .put = fifo_put,
    .take = fifo_take,
    .steal = fifo_steal,
    .is_empty = fifo_is_empty,
};
