/*
 * deque_cl.c — Chase-Lev (paper 000 Fig. 2c; Chase & Lev, SPAA'05).
 * Non-blocking: thieves CAS H; the worker takes the last task with a CAS
 * too.  The worker's take() needs a full fence between T := t and reading H.
 */
#include "tailhead.h"

ws_task *ws_cl_take_conflict(ws_worker *w, int64_t t, int64_t h);

void __ws_push_cl(ws_worker *w, ws_task *t) { ws_th_put(w, t); }

ws_task *__ws_take_cl(ws_worker *w) {
  ws_thedeque *q = &w->dq.th;
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  WS_STORE_FENCED(&q->T, t); /* T := t; fence() */
  WS_TAKE_MARK();
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_seq_cst);
  if (ws_likely(t > h)) {
    ws_count_take(w);
    return ws_th_own(q, t);
  }
  return ws_cl_take_conflict(w, t, h);
}

#ifndef WS_FASTPATH_ONLY

/* t <= h: the queue held at most task t.  Shared with FF-CL. */
__attribute__((noinline, cold)) ws_task *
ws_cl_take_conflict(ws_worker *w, int64_t t, int64_t h) {
  ws_thedeque *q = &w->dq.th;
  ws_slow_take_store(w, t);
  if (t < h) { /* a thief took it */
    atomic_store_explicit(&q->T, h, ws_relaxed);
    return WS_STOLEN(ws_th_slot(q, t));
  }
  /* t == h: the last task; compete with thieves by incrementing H. */
  atomic_store_explicit(&q->T, h + 1, ws_relaxed);
  uint64_t expect = (uint64_t)h;
  if (!atomic_compare_exchange_strong_explicit(&q->H, &expect, (uint64_t)(h + 1),
                                               ws_seq_cst, ws_relaxed))
    return WS_STOLEN(ws_th_slot(q, t));
  ws_count_take(w);
  return ws_th_own(q, t);
}

static ws_task *cl_steal(ws_worker *victim, ws_worker *thief) {
  (void)thief;
  ws_thedeque *q = &victim->dq.th;
  for (;;) {
    int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_seq_cst);
    int64_t t = atomic_load_explicit(&q->T, ws_seq_cst);
    if (h >= t)
      return WS_EMPTY;
    ws_task *task = ws_th_slot(q, h);
    uint64_t expect = (uint64_t)h;
    if (atomic_compare_exchange_strong_explicit(&q->H, &expect, (uint64_t)(h + 1),
                                                ws_seq_cst, ws_relaxed))
      return task;
  }
}

static void cl_put(ws_worker *w, ws_task *t) { __ws_push_cl(w, t); }

const ws_deque_ops ws_ops_cl = {
    .name = "cl",
    .id = WS_VARIANT_CL,
    .fence_free = 0,
    .init = ws_th_init,
    .fini = ws_th_fini,
    .put = cl_put,
    .take = __ws_take_cl,
    .steal = cl_steal,
};

#endif
