/*
 * model_ffcl.c — runtime/src/deque_ffcl.c, step by step (paper 000 §4.1,
 * Fig. 4): Chase-Lev without the worker's fence; a thief CASes H from h only
 * when T - delta > h.  take()'s conflict path is Chase-Lev's
 * (ws_cl_take_conflict in deque_cl.c).
 */
#include "verify.h"

enum {
  TAKE_LOAD_T = TH_FIRST_FREE,
  TAKE_STORE_T,
  TAKE_LOAD_H,
  TAKE_COUNT,
  TAKE_SLOT,
  CONFLICT_STORE_T_H,
  CONFLICT_RESTORE_T,
  CONFLICT_CAS,
  CONFLICT_COUNT,
  CONFLICT_SLOT,
  STEAL_LOAD_H,
  STEAL_LOAD_T,
  STEAL_SLOT,
  STEAL_CAS,
  NSTEPS
};

#define F "deque_ffcl.c"
#define CL "deque_cl.c"
static const vf_step_info steps[NSTEPS] = {
    VF_TH_PUT_STEPS,
    [TAKE_LOAD_T] = {"Fig.2a take  t := T - 1", F,
                     "int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;"},
    [TAKE_STORE_T] = {"Fig.4 take  T := t (no fence)", F,
                      "atomic_store_explicit(&q->T, t, ws_release);"},
    [TAKE_LOAD_H] = {"Fig.2a take  h := H; if (t > h)", F,
                     "int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);",
                     "if (ws_likely(t > h)) {"},
    [TAKE_COUNT] = {"§7.3 anti-coalescing store", F, "ws_count_take(w);"},
    [TAKE_SLOT] = {"Fig.2a take  return tasks[t mod W]", F,
                   "return ws_th_own(q, t);"},
    [CONFLICT_STORE_T_H] = {"Fig.2c l.31-33 if (t < h) { T := h; return EMPTY }", CL,
                            "atomic_store_explicit(&q->T, h, ws_relaxed);"},
    [CONFLICT_RESTORE_T] = {"Fig.2c l.36 T := h + 1", CL,
                            "atomic_store_explicit(&q->T, h + 1, ws_relaxed);"},
    [CONFLICT_CAS] = {"Fig.2c l.37-38 if (!CAS(&H, h, h+1)) return EMPTY", CL,
                      "if (!atomic_compare_exchange_strong_explicit(&q->H, &expect, (uint64_t)(h + 1),"},
    [CONFLICT_COUNT] = {"§7.3 anti-coalescing store", CL, "ws_count_take(w);"},
    [CONFLICT_SLOT] = {"Fig.2c l.40 return tasks[t mod W]", CL,
                       "return ws_th_own(q, t);"},
    [STEAL_LOAD_H] = {"Fig.4 l.72 h := H", F,
                      "int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_seq_cst);"},
    [STEAL_LOAD_T] = {"Fig.4 l.73-77 t := T; EMPTY if h >= t; ABORT if t - δ <= h", F,
                      "int64_t t = atomic_load_explicit(&q->T, ws_seq_cst);",
                      "if (t - h <= delta)"},
    [STEAL_SLOT] = {"Fig.4 l.78 task := tasks[h mod W]", F,
                    "ws_task *task = ws_th_slot(q, h);"},
    [STEAL_CAS] = {"Fig.4 l.79-81 if (!CAS(&H, h, h+1)) continue; return task", F,
                   "if (atomic_compare_exchange_strong_explicit(&q->H, &expect, (uint64_t)(h + 1),"},
};

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in put/take, a thief in steal */
  int x = c->cfg->x, delta = c->cfg->delta;
  switch (w->pc) {
  /* __ws_take_ffcl */
  case TAKE_LOAD_T:
    w->t = (int8_t)(vf_load(c, A_T) - 1);
    return vf_goto(c, TAKE_STORE_T);
  case TAKE_STORE_T: /* T := t, no fence */
    if (!vf_store(c, A_T, w->t))
      return STEP_BLOCKED;
    vf_announce_take(c);
    return vf_goto(c, TAKE_LOAD_H);
  case TAKE_LOAD_H:
    w->h = (int8_t)vf_load(c, A_H);
    if (w->t > w->h)
      return vf_goto(c, x ? TAKE_COUNT : TAKE_SLOT);
    /* ws_cl_take_conflict(w, t, h): the same CAS protocol as CL */
    return vf_goto(c, w->t < w->h ? CONFLICT_STORE_T_H : CONFLICT_RESTORE_T);
  case TAKE_COUNT:
  case CONFLICT_COUNT:
    if (!vf_count_take(c))
      return STEP_BLOCKED;
    return vf_goto(c, w->pc == TAKE_COUNT ? TAKE_SLOT : CONFLICT_SLOT);
  case TAKE_SLOT:
  case CONFLICT_SLOT:
    return vf_take_return(c, RET_TASK, vf_load(c, VF_SLOT(w->t)));
  /* ws_cl_take_conflict */
  case CONFLICT_STORE_T_H:
    if (!vf_store(c, A_T, w->h))
      return STEP_BLOCKED;
    return vf_take_return(c, RET_STOLEN, 0);
  case CONFLICT_RESTORE_T:
    if (!vf_store(c, A_T, w->h + 1))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_CAS);
  case CONFLICT_CAS:
    if (!vf_drained(w))
      return STEP_BLOCKED;
    if (!vf_cas(c, A_H, w->h, w->h + 1))
      return vf_take_return(c, RET_STOLEN, 0);
    return vf_goto(c, x ? CONFLICT_COUNT : CONFLICT_SLOT);
  /* ffcl_steal */
  case STEAL_LOAD_H:
    w->h = (int8_t)vf_load(c, A_H);
    return vf_goto(c, STEAL_LOAD_T);
  case STEAL_LOAD_T:
    w->t = (int8_t)vf_load(c, A_T);
    if (w->h >= w->t)
      return vf_steal_return(c, RET_EMPTY);
    if (w->t - w->h <= delta) /* t - δ <= h */
      return vf_steal_return(c, RET_ABORT);
    return vf_goto(c, STEAL_SLOT);
  case STEAL_SLOT:
    w->task = (int8_t)vf_load(c, VF_SLOT(w->h));
    return vf_goto(c, STEAL_CAS);
  case STEAL_CAS:
    if (!vf_drained(w))
      return STEP_BLOCKED;
    if (!vf_cas(c, A_H, w->h, w->h + 1))
      return vf_goto(c, STEAL_LOAD_H);
    if (vf_steal_commit(c, w->task) != STEP_OK)
      return STEP_VIOLATION;
    return vf_steal_return(c, RET_TASK);
  default:
    return vf_th_put_step(c);
  }
}

const vf_variant vf_ffcl = {
    .name = "ffcl",
    .relaxed = 1,
    .put_pc = TH_PUT_LOAD_T,
    .take_pc = TAKE_LOAD_T,
    .steal_pc = STEAL_LOAD_H,
    .steps = steps,
    .nsteps = NSTEPS,
    .step = step,
    .claimed_below = vf_th_claimed_below,
};
