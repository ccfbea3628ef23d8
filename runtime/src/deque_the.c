/*
 * deque_the.c — Cilk-5's THE protocol (paper 000 Fig. 2b; Frigo et al.,
 * PLDI'98).  Thieves serialise on a lock; the worker's take() publishes
 * T := t and needs a full fence before it reads H.  On a conflict the
 * worker wins: a thief that sees H > T backs off.
 */
#include "tailhead.h"

ws_task *ws_the_take_conflict(ws_worker *w, int64_t t);

void __ws_push_the(ws_worker *w, ws_task *t) { ws_th_put(w, t); }

ws_task *__ws_take_the(ws_worker *w) {
  ws_thedeque *q = &w->dq.th;
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  WS_STORE_FENCED(&q->T, t); /* T := t; fence() */
  WS_TAKE_MARK();
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_seq_cst);
  if (ws_likely(t >= h)) { /* a thief racing for task t sees H > T, aborts */
    ws_count_take(w);
    return ws_th_own(q, t);
  }
  return ws_the_take_conflict(w, t);
}

#ifndef WS_FASTPATH_ONLY

__attribute__((noinline, cold)) ws_task *ws_the_take_conflict(ws_worker *w,
                                                              int64_t t) {
  ws_thedeque *q = &w->dq.th;
  ws_slow_take_store(w, t);
  ws_th_lock(q);
  if ((int64_t)atomic_load_explicit(&q->H, ws_relaxed) >= t + 1) {
    atomic_store_explicit(&q->T, t + 1, ws_relaxed); /* lost task t */
    ws_th_unlock(q);
    return WS_STOLEN(ws_th_slot(q, t));
  }
  ws_th_unlock(q);
  ws_count_take(w);
  return ws_th_own(q, t);
}

static ws_task *the_steal(ws_worker *victim, ws_worker *thief) {
  (void)thief;
  ws_thedeque *q = &victim->dq.th;
  /* Look before locking: idle thieves must not serialise on empty deques. */
  if (atomic_load_explicit(&q->T, ws_relaxed) <=
      (int64_t)atomic_load_explicit(&q->H, ws_relaxed))
    return WS_EMPTY;
  ws_th_lock(q);
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  WS_STORE_FENCED(&q->H, (uint64_t)(h + 1)); /* H := h + 1; fence() */
  ws_task *ret;
  if (h + 1 <= atomic_load_explicit(&q->T, ws_seq_cst)) {
    ret = ws_th_slot(q, h);
  } else {
    atomic_store_explicit(&q->H, (uint64_t)h, ws_relaxed);
    ret = WS_EMPTY;
  }
  ws_th_unlock(q);
  return ret;
}

static void the_put(ws_worker *w, ws_task *t) { __ws_push_the(w, t); }

const ws_deque_ops ws_ops_the = {
    .name = "the",
    .id = WS_VARIANT_THE,
    .fence_free = 0,
    .init = ws_th_init,
    .fini = ws_th_fini,
    .put = the_put,
    .take = __ws_take_the,
    .steal = the_steal,
};

#endif
