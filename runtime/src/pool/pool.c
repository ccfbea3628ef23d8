/*
 * pool.c — the variant-independent part of ws/pool.h: configuration, the
 * get() policy (own queue, then every other queue from a random start), the
 * idle-count termination of ws_pool_next, the emptiness scan, statistics.
 */
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../worker.h"
#include "pool_impl.h"

#define ACTIVE_MASK 0xffffffffULL
#define VERSION_ONE (1ULL << 32)
#define IDLE_SPINS 32

static size_t round_up_pow2(size_t n) {
  size_t p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

static const ws_pool_ops *pick_variant(const ws_pool_config *cfg) {
  if (cfg->variant) {
    const ws_pool_ops *ops = ws_pool_ops_by_name(cfg->variant);
    if (!ops)
      ws_fatal("ws_pool_create: unknown variant \"%s\": expected one of %s",
               cfg->variant, ws_pool_variants());
    return ops;
  }
  const ws_pool_ops *ops = ws_pool_env_variant();
  return ops ? ops : WS_TSO ? &ws_pool_ffcl : &ws_pool_cl;
}

ws_pool *ws_pool_create(const ws_pool_config *cfg) {
  const ws_pool_ops *ops = pick_variant(cfg);
  if (cfg->workers < 1 || cfg->producers < 0 ||
      cfg->workers > WS_MAX_WORKERS - cfg->producers)
    ws_fatal("ws_pool_create: workers=%d producers=%d: expected workers >= 1, "
             "producers >= 0, at most %d slots in all",
             cfg->workers, cfg->producers, WS_MAX_WORKERS);
  if (cfg->capacity && (cfg->capacity < WS_MIN_DEQUE_SIZE ||
                        cfg->capacity > (size_t)WS_MAX_DEQUE_SIZE))
    ws_fatal("ws_pool_create: capacity=%zu: expected 0 (WS_DEQUE_SIZE) or "
             "%d to %ld tasks",
             cfg->capacity, WS_MIN_DEQUE_SIZE, (long)WS_MAX_DEQUE_SIZE);
  if (cfg->chunk_size > (size_t)WS_POOL_MAX_CHUNK)
    ws_fatal("ws_pool_create: chunk_size=%zu: expected 0 (WS_POOL_CHUNK) or "
             "1 to %ld",
             cfg->chunk_size, WS_POOL_MAX_CHUNK);
  if (ops->fence_free && !WS_TSO)
    ws_fatal("the %s pool relies on bounded TSO (x86) and is not offered on "
             "this processor",
             ops->name);
  if (ops->owner_must_take && cfg->producers)
    ws_fatal("the %s pool has thieves wait for the queue's owner to take; "
             "producer slots never take: use producers=0 or another variant",
             ops->name);

  ws_pool *p = ws_pool_zalloc(sizeof *p, "a task pool");
  p->ops = ops;
  p->workers = cfg->workers;
  p->slots = cfg->workers + cfg->producers;
  p->queues = ops->producer_queues ? p->slots : p->workers;
  const ws_runtime *rt = ws_runtime_configured();
  p->capacity = round_up_pow2(cfg->capacity ? cfg->capacity : rt->deque_size);
  size_t chunk = cfg->chunk_size ? cfg->chunk_size : ws_pool_env_chunk();
  p->chunk_size = chunk ? chunk : WS_POOL_DEFAULT_CHUNK;
  p->slot = ws_pool_zalloc(sizeof *p->slot * (size_t)p->slots, "pool slots");
  for (int i = 0; i < p->slots; i++)
    p->slot[i].rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1) | 1;
  atomic_init(&p->activity, (uint64_t)p->workers);
  atomic_init(&p->done, 0);
  ops->init(p);
  return p;
}

static void print_stats(const ws_pool *p) {
  ws_pool_stats s;
  ws_pool_get_stats(p, &s);
  fprintf(stderr,
          "ws: pool variant=%s workers=%d producers=%d puts=%" PRIu64
          " own=%" PRIu64 " stolen=%" PRIu64 " steal_attempts=%" PRIu64
          " aborts=%" PRIu64 " chunk_steals=%" PRIu64 "\n",
          p->ops->name, p->workers, p->slots - p->workers, s.puts, s.own,
          s.stolen, s.steal_attempts, s.aborts, s.chunk_steals);
}

void ws_pool_destroy(ws_pool *p) {
  if (!p)
    return;
  if (ws_rt.stats)
    print_stats(p);
  p->ops->fini(p);
  free(p->slot);
  free(p);
}

static void check_slot(const ws_pool *p, int slot, int limit, const char *fn) {
  if ((unsigned)slot >= (unsigned)limit)
    ws_fatal("%s: slot %d is out of range (0..%d)", fn, slot, limit - 1);
}

void ws_pool_put(ws_pool *p, int slot, ws_pool_task t) {
  check_slot(p, slot, p->slots, "ws_pool_put");
  if (ws_unlikely(t == WS_POOL_NONE || t > WS_POOL_TASK_MAX))
    ws_fatal("ws_pool_put: task %#" PRIxPTR " is out of range (1 to %#" PRIxPTR
             ")",
             t, (uintptr_t)WS_POOL_TASK_MAX);
  p->slot[slot].c.puts++;
  p->ops->put(p, slot, t);
}

/* One steal attempt on every other queue, from a random start so that thieves
 * spread over victims. */
static ws_pool_task steal_pass(ws_pool *p, int w) {
  ws_pool_slot *me = &p->slot[w];
  const ws_pool_ops *ops = p->ops;
  int nq = p->queues;
  ws_pool_task t = WS_POOL_NONE;
  if (ops->guard_begin)
    ops->guard_begin(p, w);
  me->rng ^= me->rng << 13; /* xorshift64 */
  me->rng ^= me->rng >> 7;
  me->rng ^= me->rng << 17;
  int start = (int)(me->rng % (uint64_t)nq);
  for (int k = 0; k < nq; k++) {
    int v = start + k < nq ? start + k : start + k - nq;
    if (v == w)
      continue;
    me->c.steal_attempts++;
    if ((t = ops->steal(p, w, v)) != WS_POOL_NONE) {
      me->c.stolen++;
      break;
    }
  }
  if (ops->guard_end)
    ops->guard_end(p, w);
  return t;
}

ws_pool_task ws_pool_get(ws_pool *p, int w) {
  check_slot(p, w, p->workers, "ws_pool_get");
  ws_pool_task t = p->ops->take(p, w);
  if (t != WS_POOL_NONE) {
    p->slot[w].c.own++;
    return t;
  }
  return steal_pass(p, w);
}

static int scan_empty(ws_pool *p, int slot) {
  const ws_pool_ops *ops = p->ops;
  int empty = 1;
  if (ops->guard_begin)
    ops->guard_begin(p, slot);
  for (int q = 0; q < p->queues && empty; q++)
    empty = ops->is_empty(p, slot, q);
  if (ops->guard_end)
    ops->guard_end(p, slot);
  return empty;
}

int ws_pool_empty(ws_pool *p, int slot) {
  check_slot(p, slot, p->slots, "ws_pool_empty");
  return scan_empty(p, slot);
}

static void back_off(unsigned spins) {
  if (spins < IDLE_SPINS)
    ws_cpu_relax();
  else
    sched_yield(); /* more workers than cores: let the busy ones run */
}

/*
 * The idle-count protocol.  A worker outside ws_pool_next is active; it goes
 * idle after a get() found nothing, and while idle it holds no task and puts
 * none.  An idle worker that sees a non-empty queue becomes active again
 * (bumping the version) before it tries to get the task.  Termination: the
 * word read before a scan says nobody is active, the scan finds every queue
 * empty, and the word is unchanged after it.  Then no worker was active
 * during the scan, so no queue changed while it was read: all were empty at
 * once, with nobody left to put.
 */
ws_pool_task ws_pool_next(ws_pool *p, int w) {
  check_slot(p, w, p->workers, "ws_pool_next");
  if (atomic_load_explicit(&p->done, ws_acquire))
    return WS_POOL_NONE;
  ws_pool_task t = ws_pool_get(p, w);
  if (t != WS_POOL_NONE)
    return t;
  atomic_fetch_sub_explicit(&p->activity, 1, ws_seq_cst);
  for (unsigned spins = 0;; spins++) {
    if (atomic_load_explicit(&p->done, ws_acquire))
      return WS_POOL_NONE;
    uint64_t before = atomic_load_explicit(&p->activity, ws_seq_cst);
    if (scan_empty(p, w)) {
      if ((before & ACTIVE_MASK) == 0 &&
          atomic_load_explicit(&p->activity, ws_seq_cst) == before) {
        atomic_store_explicit(&p->done, 1, ws_release);
        return WS_POOL_NONE;
      }
    } else {
      atomic_fetch_add_explicit(&p->activity, VERSION_ONE + 1, ws_seq_cst);
      if ((t = ws_pool_get(p, w)) != WS_POOL_NONE)
        return t;
      atomic_fetch_sub_explicit(&p->activity, 1, ws_seq_cst);
    }
    back_off(spins);
  }
}

const char *ws_pool_variant(const ws_pool *p) { return p->ops->name; }

int ws_pool_exactly_once(const ws_pool *p) { return p->ops->exactly_once; }

void ws_pool_get_stats(const ws_pool *p, ws_pool_stats *out) {
  memset(out, 0, sizeof *out);
  for (int i = 0; i < p->slots; i++) {
    const ws_pool_stats *c = &p->slot[i].c;
    out->puts += c->puts;
    out->own += c->own;
    out->stolen += c->stolen;
    out->steal_attempts += c->steal_attempts;
    out->aborts += c->aborts;
    out->chunk_steals += c->chunk_steals;
  }
}
