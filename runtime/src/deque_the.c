/*
 * deque_the.c — Cilk-5's THE protocol (paper 000 Fig. 2b; Frigo et al.,
 * PLDI'98).  Thieves serialise on a lock; the worker's take() publishes
 * T := t and needs a full fence before it reads H.  On a conflict the
 * worker wins: a thief that sees H > T backs off.
 */
#include "tailhead.h"

int ws_the_take_conflict(ws_dq *q, ws_slot *t);
int ws_the_take_conflict_self(ws_slot *t);

static inline __attribute__((always_inline)) int the_take(ws_dq *q, int self,
                                                          ws_slot *t) {
  WS_STORE_FENCED(&q->T, t); /* T := t; fence() */
  WS_TAKE_MARK();
  uint64_t H = ws_th_peek_head_fenced(q); /* after the fence (x86: a plain load) */
  if (ws_likely(ws_th_at_or_above(t, H))) /* a thief racing for t sees H > T */
    return 0;
  return WS_SLOW(self, ws_the_take_conflict_self(t), ws_the_take_conflict(q, t));
}

void __ws_push_the(ws_slot *t) { ws_th_push(&ws_my_dq, t); }
int __ws_take_the(ws_slot *t) { return the_take(&ws_my_dq, 1, t); }

#ifndef WS_FASTPATH_ONLY

int ws_the_take_conflict_self(ws_slot *t) {
  return ws_the_take_conflict(&ws_my_dq, t);
}

/* t < h: a thief raised H past t.  Under the lock H is final: if it is
 * above t the task is lost; T goes back up to H (Fig. 2b l.6), so the
 * deque is empty while the owner waits for the thief. */
__attribute__((noinline, cold)) int ws_the_take_conflict(ws_dq *q, ws_slot *t) {
  ws_th_lock(q);
  uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);
  if (!ws_th_at_or_above(t, H)) { /* H >= t + 1: lost task t */
    atomic_store_explicit(&q->T, t + 1, ws_relaxed);
    ws_th_unlock(q);
    return 1;
  }
  ws_th_unlock(q);
  return 0;
}

static ws_slot *the_steal(ws_dq *q, ws_worker *thief) {
  (void)thief;
  /* Look before locking: idle thieves must not serialise on empty deques. */
  if (ws_th_dist(atomic_load_explicit(&q->T, ws_relaxed),
                 atomic_load_explicit(&q->H, ws_relaxed)) <= 0)
    return WS_EMPTY;
  ws_th_lock(q);
  uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);
  ws_slot *h = ws_th_head(q, H);
  WS_STORE_FENCED(&q->H, ws_th_pack(ws_th_tag(H), h + 1)); /* H := h + 1; fence() */
  ws_slot *ret;
  if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), H) >= 1) { /* h + 1 <= T */
    ret = h;
  } else {
    atomic_store_explicit(&q->H, H, ws_relaxed);
    ret = WS_EMPTY;
  }
  ws_th_unlock(q);
  return ret;
}

static int the_take_op(ws_dq *q, ws_slot *t) { return the_take(q, 0, t); }

const ws_deque_ops ws_ops_the = {
    WS_OPS_ROW(the),
    .init = ws_th_init,
    .push = ws_th_push_op,
    .take = the_take_op,
    .steal = the_steal,
    .reset = ws_th_reset_locked,
};

#endif
