/* wsq.c — the pools' work-stealing queues (wsq.h): THE, Chase-Lev, FF-THE,
 * FF-CL and THEP over a ring of values (paper 000 Figs. 2-5). */
#include <sched.h>
#include <stdlib.h>

#include "../worker.h"
#include "wsq.h"

int ws_wsq_init(ws_wsq *q, size_t capacity, int packed_head) {
  q->items = calloc(capacity, sizeof *q->items);
  if (!q->items)
    return -1;
  q->mask = (int64_t)capacity - 1;
  q->packed_head = packed_head;
  atomic_init(&q->T, 0);
  atomic_init(&q->H, 0);
  atomic_init(&q->lock, 0);
  atomic_init(&q->P, -1); /* THEP: P = ⊥ */
  q->h_seen = 0;
  return 0;
}

void ws_wsq_fini(ws_wsq *q) {
  free(q->items);
  q->items = NULL;
}

/* THEP compares its 32-bit head modulo 2^32. */
static inline int32_t dist32(int64_t a, uint32_t b) { return (int32_t)((uint32_t)a - b); }

int64_t ws_wsq_size(const ws_wsq *q) {
  int64_t t = atomic_load_explicit(&q->T, ws_acquire);
  uint64_t h = atomic_load_explicit(&q->H, ws_acquire);
  return q->packed_head ? dist32(t, (uint32_t)h) : t - (int64_t)h;
}

static inline uint64_t item(const ws_wsq *q, int64_t i) {
  return atomic_load_explicit(&q->items[i & q->mask], ws_relaxed);
}

/* put() of Fig. 2a.  A THE-style thief raises H to h+1 under its lock
 * before it reads slot h, and may lower it again: slot H-1 may still be
 * read, so the owner keeps off it and the ring holds mask values. */
static int put(ws_wsq *q, uint64_t v) {
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed);
  if (ws_unlikely(t - q->h_seen > q->mask)) {
    uint64_t hv = atomic_load_explicit(&q->H, ws_acquire);
    int64_t h = q->packed_head ? t - dist32(t, (uint32_t)hv) : (int64_t)hv;
    q->h_seen = h - 1;
    if (t - q->h_seen > q->mask)
      return -1;
  }
  atomic_store_explicit(&q->items[t & q->mask], v, ws_relaxed);
  atomic_store_explicit(&q->T, t + 1, ws_release);
  return 0;
}

static void lock(ws_wsq *q) {
  unsigned spins = 0;
  for (;;) {
    if (!atomic_load_explicit(&q->lock, ws_relaxed) &&
        !atomic_exchange_explicit(&q->lock, 1, ws_acquire))
      return;
    if (++spins % 64 == 0)
      sched_yield();
    else
      ws_cpu_relax();
  }
}
static void unlock(ws_wsq *q) { atomic_store_explicit(&q->lock, 0, ws_release); }

/* THE's and FF-THE's conflict (Fig. 2b l.4-11): under the lock H is final. */
static uint64_t the_conflict(ws_wsq *q, int64_t t) {
  q->ac = t;
  lock(q);
  if ((int64_t)atomic_load_explicit(&q->H, ws_relaxed) >= t + 1) {
    atomic_store_explicit(&q->T, t + 1, ws_relaxed); /* lost value t */
    unlock(q);
    return WS_WSQ_EMPTY;
  }
  unlock(q);
  return item(q, t);
}

static uint64_t the_take(ws_wsq *q) {
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  WS_STORE_FENCED(&q->T, t); /* T := t; fence() */
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_seq_cst);
  if (ws_likely(t >= h))
    return item(q, t);
  return the_conflict(q, t);
}

static uint64_t ffthe_take(ws_wsq *q) {
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  atomic_store_explicit(&q->T, t, ws_release); /* T := t, no fence */
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  q->ac = t; /* keeps two T stores from coalescing (§7.3) */
  if (ws_likely(t >= h))
    return item(q, t);
  return the_conflict(q, t);
}

static uint64_t the_steal(ws_wsq *q, uint64_t *echo_waits) {
  (void)echo_waits;
  if (atomic_load_explicit(&q->T, ws_relaxed) <=
      (int64_t)atomic_load_explicit(&q->H, ws_relaxed))
    return WS_WSQ_EMPTY; /* look before locking */
  lock(q);
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  WS_STORE_FENCED(&q->H, (uint64_t)(h + 1)); /* H := h + 1; fence() */
  uint64_t ret;
  if (h + 1 <= atomic_load_explicit(&q->T, ws_seq_cst)) {
    ret = item(q, h);
  } else {
    atomic_store_explicit(&q->H, (uint64_t)h, ws_relaxed);
    ret = WS_WSQ_EMPTY;
  }
  unlock(q);
  return ret;
}

static uint64_t ffthe_steal(ws_wsq *q, uint64_t *echo_waits) {
  (void)echo_waits;
  int64_t delta = ws_rt.delta;
  int64_t avail = atomic_load_explicit(&q->T, ws_relaxed) -
                  (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  if (avail <= 0)
    return WS_WSQ_EMPTY;
  if (avail <= delta)
    return WS_WSQ_ABORT;
  lock(q);
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  WS_STORE_FENCED(&q->H, (uint64_t)(h + 1));
  uint64_t ret;
  if (atomic_load_explicit(&q->T, ws_seq_cst) - h > delta) { /* T - δ > h */
    ret = item(q, h);
  } else {
    atomic_store_explicit(&q->H, (uint64_t)h, ws_relaxed);
    ret = WS_WSQ_ABORT;
  }
  unlock(q);
  return ret;
}

/* Chase-Lev's and FF-CL's take with t <= h: at most value t was left. */
static uint64_t cl_conflict(ws_wsq *q, int64_t t, int64_t h) {
  q->ac = t;
  if (t < h) { /* a thief took it */
    atomic_store_explicit(&q->T, h, ws_relaxed);
    return WS_WSQ_EMPTY;
  }
  atomic_store_explicit(&q->T, h + 1, ws_relaxed);
  uint64_t expect = (uint64_t)h;
  if (!atomic_compare_exchange_strong_explicit(&q->H, &expect, (uint64_t)(h + 1),
                                               ws_seq_cst, ws_relaxed))
    return WS_WSQ_EMPTY;
  return item(q, t);
}

static uint64_t cl_take(ws_wsq *q) {
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  WS_STORE_FENCED(&q->T, t);
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_seq_cst);
  if (ws_likely(t > h))
    return item(q, t);
  return cl_conflict(q, t, h);
}

static uint64_t ffcl_take(ws_wsq *q) {
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  atomic_store_explicit(&q->T, t, ws_release); /* T := t, no fence */
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  q->ac = t;
  if (ws_likely(t > h))
    return item(q, t);
  return cl_conflict(q, t, h);
}

static uint64_t cl_steal_delta(ws_wsq *q, int64_t delta) {
  for (;;) {
    int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_seq_cst);
    int64_t t = atomic_load_explicit(&q->T, ws_seq_cst);
    if (h >= t)
      return WS_WSQ_EMPTY;
    if (t - h <= delta) /* t - δ <= h */
      return WS_WSQ_ABORT;
    uint64_t v = item(q, h); /* before the CAS: after it the owner may reuse the slot */
    uint64_t expect = (uint64_t)h;
    if (atomic_compare_exchange_strong_explicit(&q->H, &expect, (uint64_t)(h + 1),
                                                ws_seq_cst, ws_relaxed))
      return v;
  }
}

static uint64_t cl_steal(ws_wsq *q, uint64_t *echo_waits) {
  (void)echo_waits;
  return cl_steal_delta(q, 0);
}

static uint64_t ffcl_steal(ws_wsq *q, uint64_t *echo_waits) {
  (void)echo_waits;
  return cl_steal_delta(q, ws_rt.delta);
}

/* THEP (Fig. 5): H packs <s:32, h:32>. */
static inline uint32_t thep_s(uint64_t sh) { return (uint32_t)(sh >> 32); }
static inline uint32_t thep_h(uint64_t sh) { return (uint32_t)sh; }
static inline uint64_t thep_pack(uint32_t s, uint32_t h) {
  return ((uint64_t)s << 32) | h;
}

static uint64_t thep_take(ws_wsq *q) {
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  atomic_store_explicit(&q->T, t, ws_release); /* T := t, no fence */
  uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);
  if (ws_likely(dist32(t, thep_h(sh)) >= 0)) {
    atomic_store_explicit(&q->P, (int64_t)thep_s(sh), ws_relaxed); /* P := s */
    return item(q, t);
  }
  q->ac = t;
  lock(q);
  atomic_store_explicit(&q->P, -1, ws_relaxed);
  sh = atomic_load_explicit(&q->H, ws_relaxed);
  if (dist32(t + 1, thep_h(sh)) <= 0) { /* h >= t + 1: lost value t */
    atomic_store_explicit(&q->T, t + 1, ws_relaxed);
    unlock(q);
    return WS_WSQ_EMPTY;
  }
  unlock(q);
  return item(q, t);
}

static uint64_t thep_steal(ws_wsq *q, uint64_t *echo_waits) {
  if (dist32(atomic_load_explicit(&q->T, ws_relaxed),
             thep_h(atomic_load_explicit(&q->H, ws_relaxed))) <= 0)
    return WS_WSQ_EMPTY;
  int64_t delta = ws_rt.delta;
  lock(q);
  uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);
  uint32_t s = thep_s(sh), h = thep_h(sh);
  WS_STORE_FENCED(&q->H, thep_pack(s + 1, h + 1)); /* H := <s+1, h+1>; fence */
  uint64_t ret;
  if ((int64_t)dist32(atomic_load_explicit(&q->T, ws_seq_cst), h) <= delta) {
    (*echo_waits)++;
    unsigned spins = 0;
    while (atomic_load_explicit(&q->P, ws_acquire) != (int64_t)(uint32_t)(s + 1)) {
      if (dist32(atomic_load_explicit(&q->T, ws_acquire), h + 1) < 0)
        goto empty; /* h + 1 > T */
      if (++spins % 64 == 0)
        sched_yield();
      else
        ws_cpu_relax();
    }
    if (dist32(atomic_load_explicit(&q->T, ws_acquire), h + 1) >= 0) {
      ret = item(q, h);
    } else {
    empty:
      atomic_store_explicit(&q->H, thep_pack(s + 1, h), ws_relaxed);
      ret = WS_WSQ_EMPTY;
    }
  } else {
    ret = item(q, h);
  }
  unlock(q);
  return ret;
}

const ws_wsq_ops ws_wsq_the = {0, put, the_take, the_steal};
const ws_wsq_ops ws_wsq_cl = {0, put, cl_take, cl_steal};
const ws_wsq_ops ws_wsq_ffthe = {0, put, ffthe_take, ffthe_steal};
const ws_wsq_ops ws_wsq_ffcl = {0, put, ffcl_take, ffcl_steal};
const ws_wsq_ops ws_wsq_thep = {1, put, thep_take, thep_steal};
