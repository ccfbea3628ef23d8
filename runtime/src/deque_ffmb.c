/*
 * deque_ffmb.c — FF-MB: FF-THE's owner, whose take has no fence, and a thief
 * that pays instead when it must know the owner's T for certain.  A thief
 * steals without a system call when bounded TSO proves it safe at a
 * validated S (as FF-THE: T - delta > h); otherwise, where FF-THE would
 * return ABORT, it claims the task (H := h + 1, a locked instruction),
 * forces a memory barrier on the owner (membarrier.h), reads T again and
 * decides as THE does (paper 000 Fig. 2b).  Asymmetric Dekker: either the
 * owner's T := t store is in memory before the thief's second read of T,
 * or the owner's next read of H sees the claim and its take goes the
 * locked conflict path.  Without a validated S delta is infinite and every
 * steal takes the barrier: nothing depends on S.
 */
#include "deque_ffthe.h"
#include "membarrier.h"

void __ws_push_ffmb(ws_slot *t) { ws_th_push(&ws_my_dq, t); }
int __ws_take_ffmb(ws_slot *t) { return ffthe_take(&ws_my_dq, 1, t); }

#ifndef WS_FASTPATH_ONLY

static ws_slot *ffmb_steal(ws_dq *q, ws_worker *thief) {
  /* Read H and T plainly first: an idle thief never pays for an empty
   * deque (the kernel serialises expedited membarriers on one lock). */
  if (ws_th_dist(atomic_load_explicit(&q->T, ws_relaxed),
                 atomic_load_explicit(&q->H, ws_relaxed)) <= 0)
    return WS_EMPTY;
  int64_t delta = ws_rt.delta_validated;
  ws_th_lock(q);
  uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);
  ws_slot *h = ws_th_head(q, H);
  WS_STORE_FENCED(&q->H, ws_th_pack(0, h + 1)); /* the claim: H := h + 1; fence */
  ws_slot *ret = h;
  if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), H) > delta) {
    thief->c.safe_bound++; /* T - δ > h: the bound says so */
  } else {
    ws_barrier_victim(q->w); /* the owner's T := t is in memory, or it sees H */
    thief->c.barriers++;
    if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), H) >= 1) { /* h + 1 <= T */
      thief->c.safe_barrier++;
    } else {
      atomic_store_explicit(&q->H, H, ws_relaxed);
      ret = WS_EMPTY;
    }
  }
  ws_th_unlock(q);
  return ret;
}

static int ffmb_take_op(ws_dq *q, ws_slot *t) { return ffthe_take(q, 0, t); }

const ws_deque_ops ws_ops_ffmb = {
    WS_OPS_ROW(ffmb),
    .init = ws_th_init,
    .push = ws_th_push_op,
    .take = ffmb_take_op,
    .steal = ffmb_steal,
    .reset = ws_th_reset_locked,
};

#endif
