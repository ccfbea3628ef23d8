/*
 * deque_ffthe.c — FF-THE (paper 000 §4, Fig. 3): THE without the worker's
 * fence.  Up to delta of the worker's T := t stores may still sit in its
 * store buffer, so a thief that read T from memory only steals task h when
 * T - delta > h; otherwise it returns ABORT and changes nothing.
 */
#include "deque_ffthe.h"

void __ws_push_ffthe(ws_slot *t) { ws_th_push(&ws_my_dq, t); }
int __ws_take_ffthe(ws_slot *t) { return ffthe_take(&ws_my_dq, 1, t); }

#ifndef WS_FASTPATH_ONLY

int ws_ffthe_take_conflict_self(ws_slot *t) {
  return ws_ffthe_take_conflict(&ws_my_dq, t);
}

/* Same as THE's: under the lock H is stable. */
__attribute__((noinline, cold)) int ws_ffthe_take_conflict(ws_dq *q,
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

static ws_slot *ffthe_steal(ws_dq *q, ws_worker *thief) {
  int64_t delta = ws_rt.delta;
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
  if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), H) > delta) { /* T - δ > h */
    ret = h;
    thief->c.safe_bound++;
  } else {
    atomic_store_explicit(&q->H, H, ws_relaxed);
    ret = WS_ABORT;
  }
  ws_th_unlock(q);
  return ret;
}

static int ffthe_take_op(ws_dq *q, ws_slot *t) { return ffthe_take(q, 0, t); }

const ws_deque_ops ws_ops_ffthe = {
    WS_OPS_ROW(ffthe),
    .init = ws_th_init,
    .push = ws_th_push_op,
    .take = ffthe_take_op,
    .steal = ffthe_steal,
    .reset = ws_th_reset_locked,
};

#endif
