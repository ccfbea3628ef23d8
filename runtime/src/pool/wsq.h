/*
 * wsq.h — the work-stealing queues of paper 000 in their original form, a
 * cyclic array of values with non-wrapping indices T and H (Fig. 2a), for
 * the task pools.  The spawn deques (deque_*.c) keep tasks in pinned slots
 * and move the window down at joins; a pool's values are copied out by the
 * thief as it claims them, so the array is reused in a ring and a queue's
 * capacity bounds its outstanding values, not its puts.  The protocols are
 * the same figures: THE and Chase-Lev fenced (cheapest fence), FF-THE and
 * FF-CL with delta, THEP with echoes.
 */
#ifndef WS_POOL_WSQ_H
#define WS_POOL_WSQ_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "../atomics.h"

typedef struct ws_wsq {
  /* Owner line: T is written by every put and take, read by thieves. */
  alignas(WS_CACHE_LINE) _Atomic int64_t T;
  _Atomic(uint64_t) *items; /* the owner writes, thieves read */
  int64_t mask;
  int64_t h_seen;  /* a lower bound of H, for the owner's overflow check */
  int packed_head; /* THEP: H holds <s:32, h:32> */
  /* The anti-coalescing store of every take (paper 000 §7.3). */
  alignas(WS_CACHE_LINE) volatile int64_t ac;
  /* Thieves' line: H (THEP: the heartbeat counter s and h) and the lock. */
  alignas(WS_CACHE_LINE) _Atomic uint64_t H;
  _Atomic int lock;
  /* THEP's echo P, written by the owner, read by a waiting thief. */
  alignas(WS_CACHE_LINE) _Atomic int64_t P;
} ws_wsq;

#define WS_WSQ_EMPTY ((uint64_t)0)
#define WS_WSQ_ABORT ((uint64_t)1) /* values are 2.. (the pool shifts them) */

typedef struct ws_wsq_ops {
  int packed_head;
  /* Owner: put value v (> 1); 0, or -1 when the queue is full. */
  int (*put)(ws_wsq *q, uint64_t v);
  /* Owner: the most recent value, or EMPTY (none, or lost to a thief). */
  uint64_t (*take)(ws_wsq *q);
  /* Thief: the oldest value, EMPTY, or ABORT; counts waits for echoes. */
  uint64_t (*steal)(ws_wsq *q, uint64_t *echo_waits);
} ws_wsq_ops;

extern const ws_wsq_ops ws_wsq_the, ws_wsq_cl, ws_wsq_ffthe, ws_wsq_ffcl,
    ws_wsq_thep;

/* A queue of `capacity` values (a power of two): 0, or -1 (no memory). */
int ws_wsq_init(ws_wsq *q, size_t capacity, int packed_head);
void ws_wsq_fini(ws_wsq *q);
/* T - H as thieves see it. */
int64_t ws_wsq_size(const ws_wsq *q);

#endif
