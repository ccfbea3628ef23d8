/*
 * litmus_ffthe.h — FF-THE (paper 000 Fig. 3) for the TSO[S] litmus test
 * (paper 000 Fig. 9).  The code of runtime/src/deque_ffthe.c, line for line
 * and with its names, on the runtime's own deque layout (ws_dq, slots, H
 * packed as in tailhead.h), with these differences:
 *   - take() makes exactly one store, T := t, as Fig. 9 requires ("no other
 *     stores"): the runtime's anti-coalescing store (§7.3) is left out; the
 *     litmus puts its L stores there instead;
 *   - delta is an argument of steal(), not ws_rt.delta, and steal() also
 *     tells which T it read (for the litmus's "stores passed" figure).
 * Keep it in step with deque_ffthe.c.
 */
#ifndef WS_LITMUS_FFTHE_H
#define WS_LITMUS_FFTHE_H

#include "tailhead.h"

/* As in the runtime, out of line: the worker's loop then holds everything
 * in registers.  Its stores (the call's return address, the lock) come
 * after the H load and with a fence, so they cannot add to the T stores
 * that hide in the store buffer. */
__attribute__((noinline, cold)) static int litmus_ffthe_take_conflict(ws_dq *q,
                                                                     ws_slot *t) {
  ws_th_lock(q);
  if (!ws_th_at_or_above(t, atomic_load_explicit(&q->H, ws_relaxed))) {
    atomic_store_explicit(&q->T, t + 1, ws_relaxed);
    ws_th_unlock(q);
    return 1;
  }
  ws_th_unlock(q);
  return 0;
}

static inline __attribute__((always_inline)) int litmus_ffthe_take(ws_dq *q,
                                                                   ws_slot *t) {
  atomic_store_explicit(&q->T, t, ws_release); /* T := t, no fence */
  WS_TAKE_MARK();
  uint64_t H = ws_th_peek_head(q);
  if (ws_likely(ws_th_at_or_above(t, H)))
    return 0;
  return litmus_ffthe_take_conflict(q, t);
}

static inline ws_slot *litmus_ffthe_steal(ws_dq *q, int64_t delta,
                                          ws_slot **T_read) {
  int64_t avail = ws_th_dist(atomic_load_explicit(&q->T, ws_relaxed),
                             atomic_load_explicit(&q->H, ws_relaxed));
  if (avail <= 0)
    return WS_EMPTY;
  if (avail <= delta) /* the real check below would fail too: don't lock */
    return WS_ABORT;
  ws_th_lock(q);
  uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);
  ws_slot *h = ws_th_head(q, H);
  WS_STORE_FENCED(&q->H, ws_th_pack(0, h + 1));
  ws_slot *ret;
  *T_read = atomic_load_explicit(&q->T, ws_seq_cst);
  if (ws_th_dist(*T_read, H) > delta) { /* T - δ > h */
    ret = h;
  } else {
    atomic_store_explicit(&q->H, H, ws_relaxed);
    ret = WS_ABORT;
  }
  ws_th_unlock(q);
  return ret;
}

#endif
