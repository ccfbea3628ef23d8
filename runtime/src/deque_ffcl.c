/*
 * deque_ffcl.c — FF-CL (paper 000 §4.1, Fig. 4): Chase-Lev without the
 * worker's fence.  A thief about to CAS H from h must know the worker's
 * store T := h cannot still be buffered, which holds when T - delta > h;
 * otherwise it returns ABORT.
 */
#include "tailhead.h"

ws_task *ws_cl_take_conflict(ws_worker *w, int64_t t, int64_t h);

void __ws_push_ffcl(ws_worker *w, ws_task *t) { ws_th_put(w, t); }

ws_task *__ws_take_ffcl(ws_worker *w) {
  ws_thedeque *q = &w->dq.th;
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  atomic_store_explicit(&q->T, t, ws_release); /* T := t, no fence */
  WS_TAKE_MARK();
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  if (ws_likely(t > h)) {
    ws_count_take(w); /* also keeps two T stores from coalescing (§7.3) */
    return ws_th_own(q, t);
  }
  return ws_cl_take_conflict(w, t, h); /* the same CAS protocol as CL */
}

#ifndef WS_FASTPATH_ONLY

static ws_task *ffcl_steal(ws_worker *victim, ws_worker *thief) {
  (void)thief;
  ws_thedeque *q = &victim->dq.th;
  int64_t delta = ws_rt.delta;
  for (;;) {
    int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_seq_cst);
    int64_t t = atomic_load_explicit(&q->T, ws_seq_cst);
    if (h >= t)
      return WS_EMPTY;
    if (t - h <= delta) /* t - δ <= h */
      return WS_ABORT;
    ws_task *task = ws_th_slot(q, h);
    uint64_t expect = (uint64_t)h;
    if (atomic_compare_exchange_strong_explicit(&q->H, &expect, (uint64_t)(h + 1),
                                                ws_seq_cst, ws_relaxed))
      return task;
  }
}

static void ffcl_put(ws_worker *w, ws_task *t) { __ws_push_ffcl(w, t); }

const ws_deque_ops ws_ops_ffcl = {
    .name = "ffcl",
    .id = WS_VARIANT_FFCL,
    .fence_free = 1,
    .init = ws_th_init,
    .fini = ws_th_fini,
    .put = ffcl_put,
    .take = __ws_take_ffcl,
    .steal = ffcl_steal,
};

#endif
