/*
 * deque_ffcl.c — FF-CL (paper 000 §4.1, Fig. 4): Chase-Lev without the
 * worker's fence.  A thief about to CAS H from h must know the worker's
 * store T := h cannot still be buffered, which holds when T - delta > h;
 * otherwise it returns ABORT.
 */
#include "tailhead.h"

int ws_cl_take_conflict(ws_dq *q, ws_slot *t);
int ws_cl_take_conflict_self(ws_slot *t);
void ws_cl_reset(ws_dq *q, ws_slot *t);

static inline __attribute__((always_inline)) int ffcl_take(ws_dq *q, int self,
                                                           ws_slot *t) {
  ws_store_tail(q, t); /* T := t, no fence */
  WS_TAKE_MARK();
  uint64_t H = ws_th_peek_head(q);
  ws_anticoalesce_store(t);
  if (ws_likely(ws_th_above(t, H))) /* t > h */
    return 0;
  return WS_SLOW(self, ws_cl_take_conflict_self(t), ws_cl_take_conflict(q, t)); /* the same CAS protocol as CL */
}

void __ws_push_ffcl(ws_slot *t) { ws_th_push(&ws_my_dq, t); }
int __ws_take_ffcl(ws_slot *t) { return ffcl_take(&ws_my_dq, 1, t); }

#ifndef WS_FASTPATH_ONLY

static ws_slot *ffcl_steal(ws_dq *q, ws_worker *thief) {
  int64_t delta = ws_rt.delta;
  for (;;) {
    uint64_t H = atomic_load_explicit(&q->H, ws_seq_cst);
    ws_slot *T = atomic_load_explicit(&q->T, ws_seq_cst);
    int64_t avail = ws_th_dist(T, H);
    if (avail <= 0)
      return WS_EMPTY;
    if (avail <= delta) /* t - δ <= h */
      return WS_ABORT;
    ws_slot *h = ws_th_head(q, H);
    if (atomic_compare_exchange_strong_explicit(
            &q->H, &H, ws_th_pack(ws_th_tag(H), h + 1), ws_seq_cst, ws_relaxed)) {
      thief->c.safe_bound++;
      return h;
    }
  }
}

static int ffcl_take_op(ws_dq *q, ws_slot *t) { return ffcl_take(q, 0, t); }

const ws_deque_ops ws_ops_ffcl = {
    WS_OPS_ROW(ffcl),
    .init = ws_th_init,
    .push = ws_th_push_op,
    .take = ffcl_take_op,
    .steal = ffcl_steal,
    .reset = ws_cl_reset,
};

#endif
