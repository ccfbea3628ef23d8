/*
 * deques.c — the spawn/sync deques (the, cl, ffthe, ffcl, thep) as pools:
 * one standalone ws_worker per slot, driven through ws_deque_ops.  The owner
 * takes LIFO at the tail, thieves steal FIFO at the head; exactly-once.
 *
 * A task v is stored as the descriptor pointer v << 3, so the deques' tag
 * bits (WS_STOLEN, WS_ABORT) never collide with a task.
 *
 * split and private are left out: their thieves depend on the owner's
 * cooperation at spawn and sync points (Lace's split requests, answered
 * transfer requests), which a pool's owner, possibly a put-only producer,
 * never gives.
 */
#include <stdlib.h>
#include <string.h>

#include "../worker.h"
#include "pool_impl.h"

/* The fence-free thieves use ws_rt.delta = ceil(S / (x + 1)) with x the
 * smallest number of stores between two takes in the program (paper 000
 * §4).  Between two takes of a pool queue there is at least the take's own
 * anti-coalescing store, whatever the caller does: x = 1.  This record keeps
 * a program whose compiled modules claim a larger x from lowering delta below
 * what the pool needs. */
__attribute__((used, section(WS_RECORD_SECTION), aligned(8)))
static const ws_module_record ws_pool_record = {
    WS_RECORD_MAGIC, WS_RECORD_VERSION, 1, 0, 0, WS_VARIANT_RUNTIME,
    "libws task pool (ws/pool.h)"};

typedef struct deque_pool {
  const ws_deque_ops *dq;
  /* Stealing from a producer slot.  A producer never takes, so none of its
   * stores can be a take() hiding in its store buffer: the fence-free
   * variants steal from it with their fenced sibling's steal, with no delta
   * window (which would otherwise strand the last delta tasks there). */
  ws_task *(*steal_producer)(ws_worker *victim, ws_worker *thief);
  ws_worker **w; /* one per slot */
} deque_pool;

static deque_pool *dp(ws_pool *p) { return p->impl; }

static ws_task *encode(ws_pool_task t) { return (ws_task *)(t << 3); }
static ws_pool_task decode(const ws_task *r) {
  return ws_is_task(r) ? (uintptr_t)r >> 3 : WS_POOL_NONE;
}

/* T - H as the thieves see it (THEP packs a 32-bit head with its heartbeat
 * counter). */
static int64_t looks_size(const ws_thedeque *q) {
  int64_t t = atomic_load_explicit(&q->T, ws_acquire);
  uint64_t h = atomic_load_explicit(&q->H, ws_acquire);
  return q->packed_head ? (int32_t)((uint32_t)t - (uint32_t)h) : t - (int64_t)h;
}

static void deques_init(ws_pool *p, const ws_deque_ops *ops,
                        const ws_deque_ops *fenced) {
  deque_pool *d = ws_pool_zalloc(sizeof *d, "pool deques");
  d->dq = ops;
  d->steal_producer = fenced->steal;
  d->w = ws_pool_zalloc(sizeof *d->w * (size_t)p->slots, "pool deques");
  for (int i = 0; i < p->slots; i++) {
    ws_worker *w = ws_pool_zalloc(sizeof *w, "a pool deque");
    w->id = i;
    if (ops->init(w, p->capacity))
      ws_fatal("out of memory allocating a pool deque of %zu tasks",
               p->capacity);
    d->w[i] = w;
  }
  p->impl = d;
}

static void deques_fini(ws_pool *p) {
  deque_pool *d = dp(p);
  for (int i = 0; i < p->slots; i++) {
    d->dq->fini(d->w[i]);
    free(d->w[i]);
  }
  free(d->w);
  free(d);
}

static void deques_put(ws_pool *p, int slot, ws_pool_task t) {
  deque_pool *d = dp(p);
  ws_thedeque *q = &d->w[slot]->dq.th;
  /* The deque's own overflow message speaks of spawns and WS_DEQUE_SIZE;
   * say it in the pool's terms.  Owner-local test first, like its put. */
  if (ws_unlikely(atomic_load_explicit(&q->T, ws_relaxed) - q->h_seen > q->mask) &&
      looks_size(q) > q->mask)
    ws_fatal("%s pool: the queue of slot %d is full (%lld tasks); raise "
             "ws_pool_config.capacity",
             p->ops->name, slot, (long long)(q->mask + 1));
  d->dq->put(d->w[slot], encode(t));
}

/* Looks before taking: a take on an empty deque would pay the fence (cl,
 * the) or a trip through the conflict path for nothing.  Not for THEP: a
 * thief waiting for the echo has already moved H past the last task, so the
 * deque looks empty to its owner, and only the owner's take (T := t) lets
 * that thief go. */
static ws_pool_task deques_take(ws_pool *p, int w) {
  deque_pool *d = dp(p);
  if (!p->ops->owner_must_take && looks_size(&d->w[w]->dq.th) <= 0)
    return WS_POOL_NONE;
  return decode(d->dq->take(d->w[w]));
}

static ws_pool_task deques_steal(ws_pool *p, int thief, int victim) {
  deque_pool *d = dp(p);
  ws_task *r = victim < p->workers ? d->dq->steal(d->w[victim], d->w[thief])
                                    : d->steal_producer(d->w[victim], d->w[thief]);
  if (r == WS_ABORT)
    p->slot[thief].c.aborts++;
  return decode(r);
}

static int deques_is_empty(ws_pool *p, int slot, int q) {
  return looks_size(&dp(p)->w[q]->dq.th) <= 0;
}

#define DEQUE_POOL(v, fenced, fencefree, waits)                                \
  static void v##_init(ws_pool *p) {                                           \
    deques_init(p, &ws_ops_##v, &ws_ops_##fenced);                             \
  }                                                                            \
  const ws_pool_ops ws_pool_##v = {                                            \
      .name = #v,                                                              \
      .exactly_once = 1,                                                       \
      .fence_free = fencefree,                                                 \
      .producer_queues = 1,                                                    \
      .owner_must_take = waits,                                                \
      .init = v##_init,                                                        \
      .fini = deques_fini,                                                     \
      .put = deques_put,                                                       \
      .take = deques_take,                                                     \
      .steal = deques_steal,                                                   \
      .is_empty = deques_is_empty,                                             \
  };

DEQUE_POOL(the, the, 0, 0)
DEQUE_POOL(cl, cl, 0, 0)
DEQUE_POOL(ffthe, the, 1, 0)
DEQUE_POOL(ffcl, cl, 1, 0)
/* An uncertain THEP thief waits for the owner's echo, and its packed head is
 * not THE's: no producer slots (pool.c refuses them). */
DEQUE_POOL(thep, thep, 1, 1)
