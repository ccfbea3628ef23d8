/*
 * deque_ffthe.c — FF-THE (paper 000 §4, Fig. 3): THE without the worker's
 * fence.  Up to delta of the worker's T := t stores may still sit in its
 * store buffer, so a thief that read T from memory only steals task h when
 * T - delta > h; otherwise it returns ABORT and changes nothing.
 */
#include "tailhead.h"

ws_task *ws_ffthe_take_conflict(ws_worker *w, int64_t t);

void __ws_push_ffthe(ws_worker *w, ws_task *t) { ws_th_put(w, t); }

ws_task *__ws_take_ffthe(ws_worker *w) {
  ws_thedeque *q = &w->dq.th;
  int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;
  atomic_store_explicit(&q->T, t, ws_release); /* T := t, no fence */
  WS_TAKE_MARK();
  int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);
  if (ws_likely(t >= h)) {
    ws_count_take(w); /* also keeps two T stores from coalescing (§7.3) */
    return ws_th_own(q, t);
  }
  return ws_ffthe_take_conflict(w, t);
}

#ifndef WS_FASTPATH_ONLY

/* Same as THE's: under the lock H is stable. */
__attribute__((noinline, cold)) ws_task *ws_ffthe_take_conflict(ws_worker *w,
                                                                int64_t t) {
  ws_thedeque *q = &w->dq.th;
  ws_slow_take_store(w, t);
  ws_th_lock(q);
  if ((int64_t)atomic_load_explicit(&q->H, ws_relaxed) >= t + 1) {
    atomic_store_explicit(&q->T, t + 1, ws_relaxed);
    ws_th_unlock(q);
    return WS_STOLEN(ws_th_slot(q, t));
  }
  ws_th_unlock(q);
  ws_count_take(w);
  return ws_th_own(q, t);
}

static ws_task *ffthe_steal(ws_worker *victim, ws_worker *thief) {
  (void)thief;
  ws_thedeque *q = &victim->dq.th;
  int64_t delta = ws_rt.delta;
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
  if (atomic_load_explicit(&q->T, ws_seq_cst) - h > delta) { /* T - δ > h */
    ret = ws_th_slot(q, h);
  } else {
    atomic_store_explicit(&q->H, (uint64_t)h, ws_relaxed);
    ret = WS_ABORT;
  }
  ws_th_unlock(q);
  return ret;
}

static void ffthe_put(ws_worker *w, ws_task *t) { __ws_push_ffthe(w, t); }

const ws_deque_ops ws_ops_ffthe = {
    .name = "ffthe",
    .id = WS_VARIANT_FFTHE,
    .fence_free = 1,
    .init = ws_th_init,
    .fini = ws_th_fini,
    .put = ffthe_put,
    .take = __ws_take_ffthe,
    .steal = ffthe_steal,
};

#endif
