/*
 * ws/pool.h — task pools for irregular work (graph traversal, producers and
 * consumers), next to the spawn/sync runtime of ws.h.  See docs/pools.md.
 *
 * A pool has `workers + producers` slots.  The caller owns the threads: each
 * thread names its slot in every call, and a slot is used by one thread at
 * a time.  Worker slots 0..workers-1 each have a queue; they put, get and
 * wait for termination.  Producer slots workers..workers+producers-1 only
 * put.
 *
 *   ws_pool *p = ws_pool_create(&(ws_pool_config){.workers = n});
 *   // in the thread of worker w:
 *   ws_pool_put(p, w, root);                       // any worker may seed
 *   for (ws_pool_task t; (t = ws_pool_next(p, w)) != WS_POOL_NONE;)
 *     visit(t);                                    // may ws_pool_put more
 *   // after every worker's ws_pool_next returned WS_POOL_NONE:
 *   ws_pool_destroy(p);
 *
 * The variant comes from the config or from WS_POOL: cl, ffcl, the, ffthe,
 * thep (the spawn/sync deques; exactly-once), idem-lifo, idem-fifo (Michael,
 * Vechev, Saraswat, PPoPP'09; at-least-once), salsa, salsa-cas (Gidron et
 * al., SALSA, 2012; exactly-once), msq (a Michael-Scott queue per worker;
 * exactly-once).
 */
#ifndef WS_POOL_H
#define WS_POOL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A task is a value the pool never looks into: an index, or a pointer cast
 * to uintptr_t.  0 is WS_POOL_NONE; values above WS_POOL_TASK_MAX are
 * reserved (the deques keep tag bits below a task). */
typedef uintptr_t ws_pool_task;
#define WS_POOL_NONE ((ws_pool_task)0)
#define WS_POOL_TASK_MAX (UINTPTR_MAX >> 3)

typedef struct ws_pool ws_pool;

typedef struct ws_pool_config {
  const char *variant; /* NULL: $WS_POOL, else ffcl (cl off x86) */
  int workers;         /* >= 1 */
  int producers;       /* put-only slots, >= 0 */
  size_t capacity;     /* tasks per queue of the array variants; 0: WS_DEQUE_SIZE */
  size_t chunk_size;   /* SALSA tasks per chunk; 0: $WS_POOL_CHUNK, else 1000 */
} ws_pool_config;

typedef struct ws_pool_stats {
  uint64_t puts;
  uint64_t own;            /* tasks a worker got from its own queue */
  uint64_t stolen;         /* tasks a worker got from another queue */
  uint64_t steal_attempts; /* steal() calls */
  uint64_t aborts;         /* steals that gave up on a non-empty queue */
  uint64_t chunk_steals;   /* SALSA: chunks moved by a steal */
} ws_pool_stats;

/* A bad config or WS_POOL/WS_POOL_CHUNK value prints one line naming it and
 * exits with status 2; so does running out of memory. */
ws_pool *ws_pool_create(const ws_pool_config *config);
void ws_pool_destroy(ws_pool *pool);

/* Adds a task (1..WS_POOL_TASK_MAX) from `slot`.  The array variants stop the
 * program with a message when a queue holds `capacity` tasks. */
void ws_pool_put(ws_pool *pool, int slot, ws_pool_task task);

/* One pass for `worker`: its own queue, then one steal attempt on every other
 * queue.  WS_POOL_NONE means this pass found nothing, not that the pool is
 * empty. */
ws_pool_task ws_pool_get(ws_pool *pool, int worker);

/* Termination for closed computations, where only workers put and every
 * worker calls ws_pool_next until it returns WS_POOL_NONE: returns a task, or
 * WS_POOL_NONE once every worker waits here and every queue is empty.  From
 * then on the pool is finished. */
ws_pool_task ws_pool_next(ws_pool *pool, int worker);

/* 1 when every queue was seen empty during the call.  For producers and
 * consumers: a consumer that read "producers are done" before a ws_pool_get
 * that returned WS_POOL_NONE and then sees ws_pool_empty may stop; when all
 * have stopped, no task is left (docs/pools.md). */
int ws_pool_empty(ws_pool *pool, int slot);

const char *ws_pool_variant(const ws_pool *pool);
/* 1: every put task is returned once.  0: at least once (idem-*). */
int ws_pool_exactly_once(const ws_pool *pool);
/* Sums over all slots; exact once the threads using the pool have stopped. */
void ws_pool_get_stats(const ws_pool *pool, ws_pool_stats *out);
/* "cl|ffcl|..." */
const char *ws_pool_variants(void);

#ifdef __cplusplus
}
#endif

#endif /* WS_POOL_H */
