/*
 * deque_thep.c — THEP (paper 000 §5, Fig. 5): FF-THE plus worker echoes.
 * H packs a thieves' heartbeat counter s with the head index h.  Every
 * take() that does not conflict echoes the s it read into P.  A thief
 * uncertain about the worker's position (T - delta <= h) waits, holding
 * the lock, until P echoes its own s+1 (the worker has seen its H) or the
 * queue drains (T < H); it never returns ABORT.
 *
 * Indices are compared modulo 2^32 since h has 32 bits.
 */
#include "tailhead.h"

#define THEP_NO_ECHO (-1) /* P = ⊥ */

ws_task *ws_thep_take_conflict(ws_worker *w, int64_t t);

static inline uint32_t thep_s(uint64_t sh) { return (uint32_t)(sh >> 32); }
static inline uint32_t thep_h(uint64_t sh) { return (uint32_t)sh; }
static inline uint64_t thep_pack(uint32_t s, uint32_t h) {
  return ((uint64_t)s << 32) | h;
}
/* a - b as a signed distance between 32-bit indices */
static inline int32_t thep_dist(int64_t a, uint32_t b) {
  return (int32_t)((uint32_t)a - b);
}

void __ws_push_thep(ws_worker *w, ws_task *t) { ws_th_put(w, t); }

ws_task *__ws_take_thep(ws_worker *w) {
  ws_thedeque *q = &w->dq.th;
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  atomic_store_explicit(&q->T, t, ws_release); /* T := t, no fence */
  WS_TAKE_MARK();
  uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed); /* <s, h> := H */
  if (ws_likely(thep_dist(t, thep_h(sh)) >= 0)) {         /* t >= h */
    atomic_store_explicit(&q->P, (int64_t)thep_s(sh), ws_relaxed); /* P := s */
    ws_count_take(w);
    return ws_th_own(q, t);
  }
  return ws_thep_take_conflict(w, t);
}

#ifndef WS_FASTPATH_ONLY

__attribute__((noinline, cold)) ws_task *ws_thep_take_conflict(ws_worker *w,
                                                               int64_t t) {
  ws_thedeque *q = &w->dq.th;
  ws_slow_take_store(w, t);
  ws_th_lock(q);
  atomic_store_explicit(&q->P, THEP_NO_ECHO, ws_relaxed);
  uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);
  if (thep_dist(t + 1, thep_h(sh)) <= 0) { /* h >= t + 1: lost task t */
    atomic_store_explicit(&q->T, t + 1, ws_relaxed);
    ws_th_unlock(q);
    return WS_STOLEN(ws_th_slot(q, t));
  }
  ws_th_unlock(q);
  ws_count_take(w);
  return ws_th_own(q, t);
}

static ws_task *thep_steal(ws_worker *victim, ws_worker *thief) {
  ws_thedeque *q = &victim->dq.th;
  if (thep_dist(atomic_load_explicit(&q->T, ws_relaxed),
                thep_h(atomic_load_explicit(&q->H, ws_relaxed))) <= 0)
    return WS_EMPTY; /* look before locking */
  int64_t delta = ws_rt.delta;
  ws_th_lock(q);
  uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);
  uint32_t s = thep_s(sh), h = thep_h(sh);
  WS_STORE_FENCED(&q->H, thep_pack(s + 1, h + 1)); /* H := <s+1, h+1>; fence */
  ws_task *ret;
  if ((int64_t)thep_dist(atomic_load_explicit(&q->T, ws_seq_cst), h) <= delta) {
    /* T - δ <= h: wait for the echo, unless the queue drains first. */
    thief->c.echo_waits++;
    unsigned spins = 0;
    while (atomic_load_explicit(&q->P, ws_acquire) != (int64_t)(uint32_t)(s + 1)) {
      if (thep_dist(atomic_load_explicit(&q->T, ws_acquire), h + 1) < 0)
        goto empty; /* h + 1 > T */
      if (++spins % 64 == 0)
        sched_yield();
      else
        ws_cpu_relax();
    }
    if (thep_dist(atomic_load_explicit(&q->T, ws_acquire), h + 1) >= 0) {
      ret = ws_th_slot(q, h); /* h + 1 <= t */
    } else {
    empty:
      atomic_store_explicit(&q->H, thep_pack(s + 1, h), ws_relaxed);
      ret = WS_EMPTY;
    }
  } else {
    ret = ws_th_slot(q, h);
  }
  ws_th_unlock(q);
  return ret;
}

static int thep_init(ws_worker *w, size_t capacity) {
  if (capacity > (1UL << 30))
    return -1; /* 32-bit distances */
  int rc = ws_th_init(w, capacity);
  w->dq.th.packed_head = 1;
  return rc;
}

static void thep_put(ws_worker *w, ws_task *t) { __ws_push_thep(w, t); }

const ws_deque_ops ws_ops_thep = {
    .name = "thep",
    .id = WS_VARIANT_THEP,
    .fence_free = 1,
    .init = thep_init,
    .fini = ws_th_fini,
    .put = thep_put,
    .take = __ws_take_thep,
    .steal = thep_steal,
};

#endif
