/*
 * tailhead.h — what THE, Chase-Lev, FF-THE, FF-CL and THEP share: the
 * layout of paper 000 Fig. 2a and its put().
 */
#ifndef WS_TAILHEAD_H
#define WS_TAILHEAD_H

#include <sched.h>

#include "worker.h"

/* Slow path of put(): the deque looked full against the owner's stale copy
 * of H.  Re-reads H; stops the program with a message naming WS_DEQUE_SIZE
 * if it really is full. */
void ws_th_make_room(ws_worker *w, int64_t t);

/* put() of Fig. 2a: store the task, then publish it by incrementing T.
 * TSO keeps the two stores in order; release says so to the compiler. */
static inline __attribute__((always_inline)) void ws_th_put(ws_worker *w,
                                                            ws_task *task) {
  ws_thedeque *q = &w->dq.th;
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed);
  if (ws_unlikely(t - q->h_seen > q->mask))
    ws_th_make_room(w, t);
  __atomic_store_n(&q->tasks[t & q->mask], task, __ATOMIC_RELAXED);
  atomic_store_explicit(&q->T, t + 1, ws_release);
}

/* Slot i as a thief reads it (or the owner, for a task it lost). */
static inline ws_task *ws_th_slot(ws_thedeque *q, int64_t i) {
  return __atomic_load_n(&q->tasks[i & q->mask], __ATOMIC_RELAXED);
}

/* Slot t as the owner reads it back in a successful take. */
static inline ws_task *ws_th_own(ws_thedeque *q, int64_t t) {
  return ws_own_slot(&q->tasks[t & q->mask]);
}

#ifndef WS_FASTPATH_ONLY
int ws_th_init(ws_worker *w, size_t capacity);
void ws_th_fini(ws_worker *w);

/* The per-deque lock of THE-style thieves (test and test-and-set). */
static inline void ws_th_lock(ws_thedeque *q) {
  unsigned spins = 0;
  for (;;) {
    if (!atomic_load_explicit(&q->lock, ws_relaxed) &&
        !atomic_exchange_explicit(&q->lock, 1, ws_acquire))
      return;
    if (++spins % 64 == 0)
      sched_yield(); /* the holder may be descheduled: more workers than cores */
    else
      ws_cpu_relax();
  }
}
static inline void ws_th_unlock(ws_thedeque *q) {
  atomic_store_explicit(&q->lock, 0, ws_release);
}
#endif

#endif
