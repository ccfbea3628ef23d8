/*
 * pool_impl.h — what every pool variant implements, and the pool object the
 * generic code (pool.c) drives: get = take own, then steal; next = get plus
 * the idle-count termination protocol; empty = one scan of is_empty.
 */
#ifndef WS_POOL_IMPL_H
#define WS_POOL_IMPL_H

#include <stdalign.h>
#include <stdint.h>

#include "../atomics.h"
#include "ws/pool.h"

typedef struct ws_pool_ops {
  const char *name;
  int exactly_once;
  int fence_free;      /* correct on bounded TSO only */
  int producer_queues; /* producer slots own a queue (else they put into
                          the workers' queues) */
  int owner_must_take; /* thieves wait for the owner's next take (thep):
                          no producer slots */
  void (*init)(ws_pool *p); /* stops the program on out of memory */
  void (*fini)(ws_pool *p);
  void (*put)(ws_pool *p, int slot, ws_pool_task t);
  /* The worker's own queue; NONE when it has nothing. */
  ws_pool_task (*take)(ws_pool *p, int worker);
  /* One attempt on queue `victim`; NONE when it got nothing (aborts are
   * counted in the thief's stats). */
  ws_pool_task (*steal)(ws_pool *p, int thief, int victim);
  /* 1 when queue `q` looked empty at the moment it was read. */
  int (*is_empty)(ws_pool *p, int slot, int q);
  /* Around steals and scans of other queues (SALSA's node reclamation);
   * NULL when not needed. */
  void (*guard_begin)(ws_pool *p, int slot);
  void (*guard_end)(ws_pool *p, int slot);
} ws_pool_ops;

/* Per-slot state, one cache line of its own: written by its thread only. */
typedef struct ws_pool_slot {
  alignas(WS_CACHE_LINE) ws_pool_stats c;
  uint64_t rng;
} ws_pool_slot;

struct ws_pool {
  const ws_pool_ops *ops;
  int workers;
  int slots;  /* workers + producers */
  int queues; /* slots with a queue: `slots` or `workers` */
  size_t capacity;
  size_t chunk_size;
  ws_pool_slot *slot;
  void *impl; /* the variant's state */
  /* Termination (pool.c): <version:32, active workers:32>.  A worker that
   * becomes active bumps the version, so an unchanged word over a scan means
   * nobody moved a task during it. */
  alignas(WS_CACHE_LINE) _Atomic uint64_t activity;
  _Atomic int done;
};

#define WS_POOL_DEFAULT_CHUNK 1000 /* paper 002 §6.6: best for SALSA */
#define WS_POOL_MAX_CHUNK (1L << 20)

/* The variants' ops tables, one per row of ws/pools.def. */
#define WS_POOL_VARIANT(symbol, name) extern const ws_pool_ops ws_pool_##symbol;
#include "ws/pools.def"

/* pool_env.c: the variant named by WS_POOL, and WS_POOL_CHUNK; a bad value
 * prints one line and exits with status 2.  NULL / 0 when unset. */
const ws_pool_ops *ws_pool_ops_by_name(const char *name);
const ws_pool_ops *ws_pool_env_variant(void);
size_t ws_pool_env_chunk(void);

/* pool_alloc.c: allocation that stops the program on failure, naming what
 * it allocated. */
void *ws_pool_alloc(size_t size, const char *what);
void *ws_pool_zalloc(size_t size, const char *what);

#endif
