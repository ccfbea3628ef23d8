/*
 * deque_cl.c — Chase-Lev (paper 000 Fig. 2c; Chase & Lev, SPAA'05).
 * Non-blocking: thieves CAS H; the worker takes the last task with a CAS
 * too.  The worker's take() needs a full fence between T := t and reading H.
 *
 * Slots stay put, so a thief claims slot h by its CAS and reads the task
 * after it (the original reads first because the owner may reuse the slot
 * at once).  H moves down again when the owner resets the deque after a
 * join; its tag changes then, so a CAS prepared before fails.
 */
#include "tailhead.h"

int ws_cl_take_conflict(ws_dq *q, ws_slot *t);
int ws_cl_take_conflict_self(ws_slot *t);

static inline __attribute__((always_inline)) int cl_take(ws_dq *q, int self, ws_slot *t) {
  WS_STORE_FENCED(&q->T, t); /* T := t; fence() */
  WS_TAKE_MARK();
  uint64_t H = ws_th_peek_head_fenced(q); /* after the fence (x86: a plain load) */
  if (ws_likely(ws_th_above(t, H))) /* t > h */
    return 0;
  return WS_SLOW(self, ws_cl_take_conflict_self(t), ws_cl_take_conflict(q, t));
}

void __ws_push_cl(ws_slot *t) { ws_th_push(&ws_my_dq, t); }
int __ws_take_cl(ws_slot *t) { return cl_take(&ws_my_dq, 1, t); }

#ifndef WS_FASTPATH_ONLY

int ws_cl_take_conflict_self(ws_slot *t) { return ws_cl_take_conflict(&ws_my_dq, t); }

/* t <= h: the deque held at most task t.  Shared with FF-CL.  The fast
 * path read only h's half of H; read all of it (the tag, for the CAS): H
 * only grows while the owner is here, so this is as if read later. */
__attribute__((noinline, cold)) int ws_cl_take_conflict(ws_dq *q, ws_slot *t) {
  uint64_t H = atomic_load_explicit(&q->H, ws_seq_cst);
  if (!ws_th_at_or_above(t, H)) { /* t < h: a thief took it */
    atomic_store_explicit(&q->T, t + 1, ws_relaxed); /* empty, above t */
    return 1;
  }
  /* t == h: the last task; compete with thieves by incrementing H. */
  atomic_store_explicit(&q->T, t + 1, ws_relaxed);
  uint64_t expect = H;
  if (!atomic_compare_exchange_strong_explicit(
          &q->H, &expect, ws_th_pack(ws_th_tag(H), t + 1), ws_seq_cst, ws_relaxed))
    return 1; /* a thief won: T = H = t + 1, empty */
  /* Ours.  Move the empty deque back down to t: T first, so a thief that
   * reads the new H reads T = t after it; the new tag fails every CAS a
   * thief prepared against the old H. */
  atomic_store_explicit(&q->T, t, ws_relaxed);
  atomic_store_explicit(&q->H, ws_th_pack(ws_th_tag(H) + 1, t), ws_release);
  return 0;
}

/* After the join of stolen slot t (CL, FF-CL): T = H = t + 1 (empty), and
 * no thief can CAS an empty deque; move it down as above. */
void ws_cl_reset(ws_dq *q, ws_slot *t) {
  uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);
  atomic_store_explicit(&q->T, t, ws_relaxed);
  atomic_store_explicit(&q->H, ws_th_pack(ws_th_tag(H) + 1, t), ws_release);
}

static ws_slot *cl_steal(ws_dq *q, ws_worker *thief) {
  (void)thief;
  for (;;) {
    uint64_t H = atomic_load_explicit(&q->H, ws_seq_cst);
    ws_slot *T = atomic_load_explicit(&q->T, ws_seq_cst);
    if (ws_th_dist(T, H) <= 0)
      return WS_EMPTY;
    ws_slot *h = ws_th_head(q, H);
    if (atomic_compare_exchange_strong_explicit(
            &q->H, &H, ws_th_pack(ws_th_tag(H), h + 1), ws_seq_cst, ws_relaxed))
      return h;
  }
}

static int cl_take_op(ws_dq *q, ws_slot *t) { return cl_take(q, 0, t); }

const ws_deque_ops ws_ops_cl = {
    WS_OPS_ROW(cl),
    .init = ws_th_init,
    .push = ws_th_push_op,
    .take = cl_take_op,
    .steal = cl_steal,
    .reset = ws_cl_reset,
};

#endif
