/*
 * litmus_ffthe.h — FF-THE (paper 000 Fig. 3) for the TSO[S] litmus test
 * (paper 000 Fig. 9).  The code of runtime/src/deque_ffthe.c, line for line
 * and with its names, on the runtime's own deque layout (ws_thedeque), with
 * these differences:
 *   - take() makes exactly one store, T := t, as Fig. 9 requires ("no other
 *     stores"): the runtime's anti-coalescing stores (§7.3), ws_count_take
 *     and ws_slow_take_store, are left out; the litmus puts its L stores
 *     there instead;
 *   - delta is an argument of steal(), not ws_rt.delta, and steal() also
 *     tells which T it read (for the litmus's "stores passed" figure);
 * Keep it in step with deque_ffthe.c.
 */
#ifndef WS_LITMUS_FFTHE_H
#define WS_LITMUS_FFTHE_H

#include "tailhead.h"

/* As in the runtime, out of line: the worker's loop then holds everything
 * in registers.  Its stores (the call's return address, the lock) come
 * after the H load and with a fence, so they cannot add to the T stores
 * that hide in the store buffer. */
__attribute__((noinline, cold)) static ws_task *
litmus_ffthe_take_conflict(ws_thedeque *q, int64_t t) {
  ws_th_lock(q);
  if ((int64_t)atomic_load_explicit(&q->H, ws_relaxed) >= t + 1) {
    atomic_store_explicit(&q->T, t + 1, ws_relaxed);
    ws_th_unlock(q);
    return WS_STOLEN(ws_th_slot(q, t));
  }
  ws_th_unlock(q);
  return ws_th_own(q, t);
}

static inline __attribute__((always_inline)) ws_task *
litmus_ffthe_take(ws_thedeque *q) {
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  atomic_store_explicit(&q->T, t, ws_release); /* T := t, no fence */
  WS_TAKE_MARK();
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  if (ws_likely(t >= h))
    return ws_th_own(q, t);
  return litmus_ffthe_take_conflict(q, t);
}

static inline ws_task *litmus_ffthe_steal(ws_thedeque *q, int64_t delta,
                                          int64_t *T_read) {
  int64_t avail = atomic_load_explicit(&q->T, ws_relaxed) -
                  (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  if (avail <= 0)
    return WS_EMPTY;
  if (avail <= delta) /* the real check below would fail too: don't lock */
    return WS_ABORT;
  ws_th_lock(q);
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  WS_STORE_FENCED(&q->H, (uint64_t)(h + 1));
  ws_task *ret;
  *T_read = atomic_load_explicit(&q->T, ws_seq_cst);
  if (*T_read - h > delta) { /* T - δ > h */
    ret = ws_th_slot(q, h);
  } else {
    atomic_store_explicit(&q->H, (uint64_t)h, ws_relaxed);
    ret = WS_ABORT;
  }
  ws_th_unlock(q);
  return ret;
}

#endif
