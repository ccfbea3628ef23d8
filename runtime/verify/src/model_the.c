/*
 * model_the.c — runtime/src/deque_the.c, step by step (paper 000 Fig. 2b).
 * --no-fence turns the worker's WS_STORE_FENCED(&q->T, t) into a plain
 * store: the negative control that must lose a task.  --no-fenced-peek
 * reads H after the exchange with a plain load (ws_th_peek_head, the take
 * before dfa1a27), which --memory=weak must catch and TSO must not.
 */
#include <stdio.h>

#include "model_tailhead.h"

enum {
  TAKE_STORE_T = TH_FIRST_FREE,
  TAKE_LOAD_H,
  CONFLICT_LOCK,
  CONFLICT_LOAD_H,
  CONFLICT_RESTORE_T,
  CONFLICT_UNLOCK_STOLEN,
  CONFLICT_UNLOCK,
  STEAL_PEEK_T,
  STEAL_PEEK_H,
  STEAL_LOCK,
  STEAL_LOAD_H,
  STEAL_STORE_H,
  STEAL_LOAD_T,
  STEAL_RESTORE_H,
  STEAL_UNLOCK,
  NSTEPS
};

#define F "deque_the.c"
static const vf_step_info steps[NSTEPS] = {
    VF_TH_PUT_STEPS,
    VF_TH_RESET_STEPS,
    [TAKE_STORE_T] = {"Fig.2a take  T := t; fence()", F,
                      "WS_STORE_FENCED(&q->T, t);"},
    [TAKE_LOAD_H] = {"Fig.2a take  h := H; Fig.2b l.3 if (t < h)", F,
                     "uint64_t H = ws_th_peek_head_fenced(q);",
                     "if (ws_likely(ws_th_at_or_above(t, H)))"},
    [CONFLICT_LOCK] = {"Fig.2b l.4 lock()", F, "ws_th_lock(q);"},
    [CONFLICT_LOAD_H] = {"Fig.2b l.5 if (H >= t + 1)", F,
                         "uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);",
                         "if (!ws_th_at_or_above(t, H)) { /* H >= t + 1: lost task t */"},
    [CONFLICT_RESTORE_T] = {"Fig.2b l.6 T := t + 1", F,
                            "atomic_store_explicit(&q->T, t + 1, ws_relaxed);"},
    [CONFLICT_UNLOCK_STOLEN] = {"Fig.2b l.7-8 unlock(); return EMPTY", F,
                                "ws_th_unlock(q);"},
    [CONFLICT_UNLOCK] = {"Fig.2b l.10-12 unlock(); return tasks[t]", F,
                         "ws_th_unlock(q);"},
    [STEAL_PEEK_T] = {"(runtime) look before locking: T", F,
                      "if (ws_th_dist(atomic_load_explicit(&q->T, ws_relaxed),"},
    [STEAL_PEEK_H] = {"(runtime) look before locking: T <= h? EMPTY (a hint)", F,
                      "atomic_load_explicit(&q->H, ws_relaxed)) <= 0)"},
    [STEAL_LOCK] = {"Fig.2b l.16 lock()", F, "ws_th_lock(q);"},
    [STEAL_LOAD_H] = {"Fig.2b l.17 h := H", F,
                      "uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);"},
    [STEAL_STORE_H] = {"Fig.2b l.18-19 H := h + 1; fence()", F,
                       "WS_STORE_FENCED(&q->H, ws_th_pack(ws_th_tag(H), h + 1));"},
    [STEAL_LOAD_T] = {"Fig.2b l.20-21 if (h + 1 <= T) ret := slot h", F,
                      "if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), H) >= 1) { /* h + 1 <= T */"},
    [STEAL_RESTORE_H] = {"Fig.2b l.23-24 H := h; ret := EMPTY", F,
                         "atomic_store_explicit(&q->H, H, ws_relaxed);"},
    [STEAL_UNLOCK] = {"Fig.2b l.26-27 unlock(); return ret", F,
                      "ws_th_unlock(q);"},
};

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in push/take/reset, a thief in steal */
  switch (w->pc) {
  /* the_take */
  case TAKE_STORE_T:
    if (!(vf_dropped(c, DROP_FENCE) ? vf_store(c, A_T, vf_slot(c))
                                    : vf_store_fenced(c, A_T, vf_slot(c))))
      return STEP_BLOCKED;
    vf_announce_take(c);
    return vf_goto(c, TAKE_LOAD_H);
  case TAKE_LOAD_H:
    if (vf_slot(c) >= VF_HEAD(vf_load(c, A_H)))
      return vf_take_return(c, 0);
    return vf_goto(c, CONFLICT_LOCK);
  /* ws_the_take_conflict */
  case CONFLICT_LOCK:
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_LOAD_H);
  case CONFLICT_LOAD_H:
    if (!(vf_slot(c) >= VF_HEAD(vf_load(c, A_H))))
      return vf_goto(c, CONFLICT_RESTORE_T);
    return vf_goto(c, CONFLICT_UNLOCK);
  case CONFLICT_RESTORE_T: /* lost task t */
    if (!vf_store(c, A_T, vf_slot(c) + 1))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_UNLOCK_STOLEN);
  case CONFLICT_UNLOCK_STOLEN:
  case CONFLICT_UNLOCK:
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_take_return(c, w->pc == CONFLICT_UNLOCK_STOLEN);
  /* the_steal */
  case STEAL_PEEK_T: /* C leaves the order of the two loads open; as written */
    w->t = (int8_t)vf_load(c, A_T);
    return vf_goto(c, STEAL_PEEK_H);
  case STEAL_PEEK_H:
    if (w->t - VF_HEAD(vf_load(c, A_H)) <= 0)
      return vf_steal_return(c, RET_EMPTY_HINT, 0);
    return vf_goto(c, STEAL_LOCK);
  case STEAL_LOCK:
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_H);
  case STEAL_LOAD_H:
    w->H = (int8_t)vf_load(c, A_H);
    w->h = (int8_t)VF_HEAD(w->H);
    return vf_goto(c, STEAL_STORE_H);
  case STEAL_STORE_H:
    if (!vf_store_fenced(c, A_H, VF_PACK(VF_TAG(w->H), w->h + 1)))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_T);
  case STEAL_LOAD_T:
    if (vf_load(c, A_T) - w->h >= 1) {
      w->ret = RET_TASK;
      return vf_goto(c, STEAL_UNLOCK);
    }
    return vf_goto(c, STEAL_RESTORE_H);
  case STEAL_RESTORE_H:
    if (!vf_store(c, A_H, w->H))
      return STEP_BLOCKED;
    w->ret = RET_EMPTY;
    return vf_goto(c, STEAL_UNLOCK);
  case STEAL_UNLOCK:
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_steal_return(c, w->ret, w->h);
  default:
    return vf_th_step(c);
  }
}

static void show(const int8_t *m) {
  vf_th_show(m);
  printf(" lock=%d\n", m[A_LOCK]);
}

const vf_variant vf_the = {
    .name = "the",
    .drops = DROP_FENCE | DROP_FENCED_PEEK | DROP_RESET_LOCK | DROP_RESET,
    .put_pc = TH_PUT_STORE_T,
    .take_pc = TAKE_STORE_T,
    .steal_pc = STEAL_PEEK_T,
    .reset_pc = TH_RESET_LOCK,
    .steps = steps,
    .nsteps = NSTEPS,
    .step = step,
    .claimed_below = vf_th_claimed_below,
    .show = show,
};
