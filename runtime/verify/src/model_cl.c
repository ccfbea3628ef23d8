/*
 * model_cl.c — runtime/src/deque_cl.c, step by step (paper 000 Fig. 2c),
 * and the conflict path and reset FF-CL shares with it (vf_cl_step).
 * --no-fence turns the worker's WS_STORE_FENCED(&q->T, t) into a plain
 * store: the negative control that must lose a task.  --no-fenced-peek
 * reads H after the exchange with a plain load (ws_th_peek_head, the take
 * before dfa1a27), which --memory=weak must catch and TSO must not.  --no-reset-tag and
 * --no-take-tag move H down without a new tag.
 */
#include <stdio.h>

#include "model_tailhead.h"

enum {
  TAKE_STORE_T = TH_FIRST_FREE,
  TAKE_LOAD_H,
  STEAL_LOAD_H,
  STEAL_LOAD_T,
  STEAL_CAS,
  NSTEPS
};

#define F "deque_cl.c"
static const vf_step_info steps[NSTEPS] = {
    VF_TH_PUT_STEPS,
    VF_CL_STEPS,
    [TAKE_STORE_T] = {"Fig.2a take  T := t; fence()", F,
                      "WS_STORE_FENCED(&q->T, t);"},
    [TAKE_LOAD_H] = {"Fig.2a take  h := H; if (t > h)", F,
                     "uint64_t H = ws_th_peek_head_fenced(q);",
                     "if (ws_likely(ws_th_above(t, H))) /* t > h */"},
    [STEAL_LOAD_H] = {"Fig.2c l.46 h := H", F,
                      "uint64_t H = atomic_load_explicit(&q->H, ws_seq_cst);"},
    [STEAL_LOAD_T] = {"Fig.2c l.47-49 t := T; if (h >= t) return EMPTY", F,
                      "ws_slot *T = atomic_load_explicit(&q->T, ws_seq_cst);",
                      "if (ws_th_dist(T, H) <= 0)"},
    [STEAL_CAS] = {"Fig.2c l.51-53 if (!CAS(&H, <tag,h>, <tag,h+1>)) continue; return slot h", F,
                   "&q->H, &H, ws_th_pack(ws_th_tag(H), h + 1), ws_seq_cst, ws_relaxed))"},
};

/* ws_cl_take_conflict (t <= h: the deque held at most task t) and
 * ws_cl_reset. */
int vf_cl_step(vf_ctx *c) {
  vf_thread *w = c->th;
  int t = vf_slot(c);
  switch (w->pc) {
  case CL_CONFLICT_LOAD_H: /* all of H, the tag for the CAS */
    w->H = (int8_t)vf_load(c, A_H);
    if (!(t >= VF_HEAD(w->H)))
      return vf_goto(c, CL_CONFLICT_STOLEN_T);
    return vf_goto(c, CL_CONFLICT_LAST_T);
  case CL_CONFLICT_STOLEN_T: /* t < h: a thief took it; empty, above t */
    if (!vf_store(c, A_T, t + 1))
      return STEP_BLOCKED;
    return vf_take_return(c, 1);
  case CL_CONFLICT_LAST_T: /* t == h: compete for the last task */
    if (!vf_store(c, A_T, t + 1))
      return STEP_BLOCKED;
    return vf_goto(c, CL_CONFLICT_CAS);
  case CL_CONFLICT_CAS:
    if (!vf_drained(w))
      return STEP_BLOCKED;
    if (!vf_cas(c, A_H, w->H, VF_PACK(VF_TAG(w->H), t + 1)))
      return vf_take_return(c, 1); /* a thief won: T = H = t + 1, empty */
    return vf_goto(c, CL_CONFLICT_DOWN_T);
  case CL_CONFLICT_DOWN_T: /* ours: move the empty deque back down to t */
    if (!vf_store(c, A_T, t))
      return STEP_BLOCKED;
    return vf_goto(c, CL_CONFLICT_DOWN_H);
  case CL_CONFLICT_DOWN_H:
    if (!vf_store(c, A_H, VF_PACK(VF_TAG(w->H) + !vf_dropped(c, DROP_TAKE_TAG), t)))
      return STEP_BLOCKED;
    return vf_take_return(c, 0);
  case CL_RESET_LOAD_H:
    w->H = (int8_t)vf_load(c, A_H);
    return vf_goto(c, CL_RESET_STORE_T);
  case CL_RESET_STORE_T:
    if (!vf_store(c, A_T, t))
      return STEP_BLOCKED;
    return vf_goto(c, CL_RESET_STORE_H);
  default: /* CL_RESET_STORE_H */
    if (!vf_store(c, A_H, VF_PACK(VF_TAG(w->H) + !vf_dropped(c, DROP_RESET_TAG), t)))
      return STEP_BLOCKED;
    return vf_reset_return(c);
  }
}

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in push/take/reset, a thief in steal */
  switch (w->pc) {
  /* cl_take */
  case TAKE_STORE_T:
    if (!(vf_dropped(c, DROP_FENCE) ? vf_store(c, A_T, vf_slot(c))
                                    : vf_store_fenced(c, A_T, vf_slot(c))))
      return STEP_BLOCKED;
    vf_announce_take(c);
    return vf_goto(c, TAKE_LOAD_H);
  case TAKE_LOAD_H:
    if (vf_slot(c) > VF_HEAD(vf_load(c, A_H)))
      return vf_take_return(c, 0);
    return vf_goto(c, CL_CONFLICT_LOAD_H);
  /* cl_steal */
  case STEAL_LOAD_H:
    w->H = (int8_t)vf_load(c, A_H);
    w->h = (int8_t)VF_HEAD(w->H);
    return vf_goto(c, STEAL_LOAD_T);
  case STEAL_LOAD_T:
    if (vf_load(c, A_T) - w->h <= 0)
      return vf_steal_return(c, RET_EMPTY, 0);
    return vf_goto(c, STEAL_CAS);
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

const vf_variant vf_cl = {
    .name = "cl",
    .drops = DROP_FENCE | DROP_FENCED_PEEK | DROP_RESET_TAG | DROP_TAKE_TAG | DROP_RESET,
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
