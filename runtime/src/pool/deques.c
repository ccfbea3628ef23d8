/*
 * deques.c — the work-stealing queues of paper 000 (the ones wsq.h
 * declares) as pools: one queue per slot.  The owner takes LIFO at the
 * tail, thieves steal FIFO at the head; exactly-once.
 *
 * A task v is stored as v + 1, so the queues' EMPTY (0) and ABORT (1) never
 * collide with a task (tasks are 1..WS_POOL_TASK_MAX).
 *
 * Of the spawn deques (ws/variants.def), split and private are left out:
 * their thieves depend on the owner's cooperation at spawn and sync points
 * (Lace's split requests, answered transfer requests), which a pool's
 * owner, possibly a put-only producer, never gives.  ffmb is left out too:
 * its thief forces a memory barrier on the owner's thread (membarrier.h),
 * which must then be one of the runtime's workers (the signal fallback
 * signals its ws_worker's thread and waits for its answer), and a pool's
 * slots are the caller's own threads.
 */
#include <stdlib.h>
#include <string.h>

#include "../worker.h"
#include "pool_impl.h"
#include "wsq.h"

/* The fence-free thieves use ws_rt.delta = ceil(S / (x + 1)) with x the
 * smallest number of stores between two takes in the program (paper 000
 * §4).  Between two takes of a pool queue there is at least the take's own
 * anti-coalescing store, whatever the caller does: x = 1.  This record keeps
 * a program whose compiled modules claim a larger x from lowering delta below
 * what the pool needs. */
__attribute__((used, section(WS_RECORD_SECTION), aligned(8)))
static const ws_module_record ws_pool_record = {
    WS_RECORD_MAGIC, WS_RECORD_VERSION, 1, 0, 0, WS_VARIANT_RUNTIME, 0,
    WS_ABI_VERSION, "libws task pool (ws/pool.h)"};

typedef struct deque_pool {
  const ws_wsq_ops *q;
  /* Stealing from a producer slot.  A producer never takes, so none of its
   * stores can be a take() hiding in its store buffer: the fence-free
   * variants steal from it with their fenced sibling's steal, with no delta
   * window (which would otherwise strand the last delta tasks there). */
  uint64_t (*steal_producer)(ws_wsq *q, uint64_t *echo_waits);
  ws_wsq *w; /* one per slot */
} deque_pool;

static deque_pool *dp(ws_pool *p) { return p->impl; }

static ws_pool_task decode(uint64_t r) {
  return r > WS_WSQ_ABORT ? (ws_pool_task)(r - 1) : WS_POOL_NONE;
}

static void deques_init(ws_pool *p, const ws_wsq_ops *ops,
                        const ws_wsq_ops *fenced) {
  deque_pool *d = ws_pool_zalloc(sizeof *d, "pool deques");
  d->q = ops;
  d->steal_producer = fenced->steal;
  d->w = aligned_alloc(WS_CACHE_LINE, sizeof *d->w * (size_t)p->slots);
  if (!d->w)
    ws_fatal("out of memory allocating pool deques");
  memset(d->w, 0, sizeof *d->w * (size_t)p->slots);
  for (int i = 0; i < p->slots; i++)
    if (ws_wsq_init(&d->w[i], p->capacity, ops->packed_head))
      ws_fatal("out of memory allocating a pool deque of %zu tasks",
               p->capacity);
  p->impl = d;
}

static void deques_fini(ws_pool *p) {
  deque_pool *d = dp(p);
  for (int i = 0; i < p->slots; i++)
    ws_wsq_fini(&d->w[i]);
  free(d->w);
  free(d);
}

static void deques_put(ws_pool *p, int slot, ws_pool_task t) {
  deque_pool *d = dp(p);
  if (d->q->put(&d->w[slot], (uint64_t)t + 1))
    ws_fatal("%s pool: the queue of slot %d is full (%lld tasks); raise "
             "ws_pool_config.capacity",
             p->ops->name, slot, (long long)(d->w[slot].mask + 1));
}

/* Looks before taking: a take on an empty queue would pay the fence (cl,
 * the) or a trip through the conflict path for nothing.  Not for THEP: a
 * thief waiting for the echo has already moved H past the last task, so the
 * queue looks empty to its owner, and only the owner's take (T := t) lets
 * that thief go. */
static ws_pool_task deques_take(ws_pool *p, int w) {
  deque_pool *d = dp(p);
  if (!p->ops->owner_must_take && ws_wsq_size(&d->w[w]) <= 0)
    return WS_POOL_NONE;
  return decode(d->q->take(&d->w[w]));
}

static ws_pool_task deques_steal(ws_pool *p, int thief, int victim) {
  deque_pool *d = dp(p);
  uint64_t waits = 0;
  uint64_t r = victim < p->workers ? d->q->steal(&d->w[victim], &waits)
                                   : d->steal_producer(&d->w[victim], &waits);
  if (r == WS_WSQ_ABORT)
    p->slot[thief].c.aborts++;
  return decode(r);
}

static int deques_is_empty(ws_pool *p, int slot, int q) {
  (void)slot;
  return ws_wsq_size(&dp(p)->w[q]) <= 0;
}

#define DEQUE_POOL(v, fenced, fencefree, waits)                                \
  static void v##_init(ws_pool *p) {                                           \
    deques_init(p, &ws_wsq_##v, &ws_wsq_##fenced);                             \
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
