/*
 * model_ffcl.c — runtime/src/deque_ffcl.c, step by step (paper 000 §4.1,
 * Fig. 4): Chase-Lev without the worker's fence; a thief CASes H from h only
 * when T - delta > h.  take() makes the anti-coalescing store of §7.3 right
 * after it reads H (--no-anticoalesce leaves it out); its conflict path and
 * the reset are Chase-Lev's (deque_cl.c, vf_cl_step).
 */
#include <stdio.h>

#include "model_tailhead.h"

enum {
  TAKE_STORE_T = TH_FIRST_FREE,
  TAKE_LOAD_H,
  TAKE_ANTICOALESCE,
  STEAL_LOAD_H,
  STEAL_LOAD_T,
  STEAL_CAS,
  NSTEPS
};

#define F "deque_ffcl.c"
static const vf_step_info steps[NSTEPS] = {
    VF_TH_PUT_STEPS,
    VF_CL_STEPS,
    [TAKE_STORE_T] = {"Fig.4 take  T := t (no fence)", F, "ws_store_tail(q, t);"},
    [TAKE_LOAD_H] = {"Fig.2a take  h := H", F, "uint64_t H = ws_th_peek_head(q);"},
    [TAKE_ANTICOALESCE] = {"§7.3 anti-coalescing store; Fig.2a if (t > h)", F,
                           "ws_anticoalesce_store(t);",
                           "if (ws_likely(ws_th_above(t, H))) /* t > h */"},
    [STEAL_LOAD_H] = {"Fig.4 l.72 h := H", F,
                      "uint64_t H = atomic_load_explicit(&q->H, ws_seq_cst);"},
    [STEAL_LOAD_T] = {"Fig.4 l.73-77 t := T; EMPTY if h >= t; ABORT if t - δ <= h", F,
                      "ws_slot *T = atomic_load_explicit(&q->T, ws_seq_cst);",
                      "if (avail <= delta) /* t - δ <= h */"},
    [STEAL_CAS] = {"Fig.4 l.79-81 if (!CAS(&H, <tag,h>, <tag,h+1>)) continue; return slot h", F,
                   "&q->H, &H, ws_th_pack(ws_th_tag(H), h + 1), ws_seq_cst, ws_relaxed))"},
};

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in push/take/reset, a thief in steal */
  int delta = c->cfg->delta;
  switch (w->pc) {
  /* ffcl_take */
  case TAKE_STORE_T: /* T := t, no fence */
    if (!vf_store(c, A_T, vf_slot(c)))
      return STEP_BLOCKED;
    vf_announce_take(c);
    return vf_goto(c, TAKE_LOAD_H);
  case TAKE_LOAD_H:
    w->H = (int8_t)vf_load(c, A_H);
    if (!vf_dropped(c, DROP_ANTICOALESCE))
      return vf_goto(c, TAKE_ANTICOALESCE);
    if (vf_slot(c) > VF_HEAD(w->H))
      return vf_take_return(c, 0);
    return vf_goto(c, CL_CONFLICT_LOAD_H);
  case TAKE_ANTICOALESCE:
    if (!vf_store(c, A_SCRATCH, vf_slot(c)))
      return STEP_BLOCKED;
    if (vf_slot(c) > VF_HEAD(w->H))
      return vf_take_return(c, 0);
    return vf_goto(c, CL_CONFLICT_LOAD_H); /* the same CAS protocol as CL */
  /* ffcl_steal */
  case STEAL_LOAD_H:
    w->H = (int8_t)vf_load(c, A_H);
    w->h = (int8_t)VF_HEAD(w->H);
    return vf_goto(c, STEAL_LOAD_T);
  case STEAL_LOAD_T: {
    int avail = vf_load(c, A_T) - w->h;
    if (avail <= 0)
      return vf_steal_return(c, RET_EMPTY, 0);
    if (avail <= delta) /* t - δ <= h */
      return vf_steal_return(c, RET_ABORT, 0);
    return vf_goto(c, STEAL_CAS);
  }
  case STEAL_CAS:
    if (!vf_drained(w))
      return STEP_BLOCKED;
    if (!vf_cas(c, A_H, w->H, VF_PACK(VF_TAG(w->H), w->h + 1)))
      return vf_goto(c, STEAL_LOAD_H);
    return vf_steal_return(c, RET_TASK, w->h);
  default:
    if (w->pc < CL_CONFLICT_LOAD_H)
      return vf_th_step(c);
    return vf_cl_step(c);
  }
}

static void show(const int8_t *m) {
  vf_th_show(m);
  printf("\n");
}

const vf_variant vf_ffcl = {
    .name = "ffcl",
    .relaxed = 1,
    .drops = DROP_ANTICOALESCE | DROP_RESET_TAG | DROP_TAKE_TAG | DROP_RESET,
    .put_pc = TH_PUT_STORE_T,
    .take_pc = TAKE_STORE_T,
    .steal_pc = STEAL_LOAD_H,
    .reset_pc = CL_RESET_LOAD_H,
    .steps = steps,
    .nsteps = NSTEPS,
    .step = step,
    .claimed_below = vf_th_claimed_below,
    .show = show,
};
