/*
 * model_the.c — runtime/src/deque_the.c, step by step (paper 000 Fig. 2b).
 * --no-fence turns the worker's WS_STORE_FENCED(&q->T, t) into a plain
 * store: the negative control that must lose a task.
 */
#include "verify.h"

enum {
  TAKE_LOAD_T = TH_FIRST_FREE,
  TAKE_STORE_T,
  TAKE_LOAD_H,
  TAKE_COUNT,
  TAKE_SLOT,
  CONFLICT_LOCK,
  CONFLICT_LOAD_H,
  CONFLICT_RESTORE_T,
  CONFLICT_UNLOCK_STOLEN,
  CONFLICT_UNLOCK,
  CONFLICT_COUNT,
  CONFLICT_SLOT,
  STEAL_PEEK_T,
  STEAL_PEEK_H,
  STEAL_LOCK,
  STEAL_LOAD_H,
  STEAL_STORE_H,
  STEAL_LOAD_T,
  STEAL_SLOT,
  STEAL_RESTORE_H,
  STEAL_UNLOCK,
  NSTEPS
};

#define F "deque_the.c"
static const vf_step_info steps[NSTEPS] = {
    VF_TH_PUT_STEPS,
    [TAKE_LOAD_T] = {"Fig.2a take  t := T - 1", F,
                     "int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;"},
    [TAKE_STORE_T] = {"Fig.2a take  T := t; fence()", F,
                      "WS_STORE_FENCED(&q->T, t);"},
    [TAKE_LOAD_H] = {"Fig.2a take  h := H; Fig.2b l.3 if (t < h)", F,
                     "int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_seq_cst);",
                     "if (ws_likely(t >= h)) {"},
    [TAKE_COUNT] = {"§7.3 anti-coalescing store", F, "ws_count_take(w);"},
    [TAKE_SLOT] = {"Fig.2b l.12 return tasks[t mod W]", F,
                   "return ws_th_own(q, t);"},
    [CONFLICT_LOCK] = {"Fig.2b l.4 lock()", F, "ws_th_lock(q);"},
    [CONFLICT_LOAD_H] = {"Fig.2b l.5 if (H >= t + 1)", F,
                         "if ((int64_t)atomic_load_explicit(&q->H, ws_relaxed) >= t + 1) {"},
    [CONFLICT_RESTORE_T] = {"Fig.2b l.6 T := t + 1", F,
                            "atomic_store_explicit(&q->T, t + 1, ws_relaxed);"},
    [CONFLICT_UNLOCK_STOLEN] = {"Fig.2b l.7-8 unlock(); return EMPTY", F,
                                "return WS_STOLEN(ws_th_slot(q, t));"},
    [CONFLICT_UNLOCK] = {"Fig.2b l.10 unlock()", F, "ws_th_unlock(q);"},
    [CONFLICT_COUNT] = {"§7.3 anti-coalescing store", F, "ws_count_take(w);"},
    [CONFLICT_SLOT] = {"Fig.2b l.12 return tasks[t mod W]", F,
                       "return ws_th_own(q, t);"},
    [STEAL_PEEK_T] = {"(runtime) look before locking: T", F,
                      "if (atomic_load_explicit(&q->T, ws_relaxed) <="},
    [STEAL_PEEK_H] = {"(runtime) look before locking: T <= H? EMPTY (a hint)", F,
                      "(int64_t)atomic_load_explicit(&q->H, ws_relaxed))"},
    [STEAL_LOCK] = {"Fig.2b l.16 lock()", F, "ws_th_lock(q);"},
    [STEAL_LOAD_H] = {"Fig.2b l.17 h := H", F,
                      "int64_t h = (int64_t)atomic_load_explicit(&q->H, ws_relaxed);"},
    [STEAL_STORE_H] = {"Fig.2b l.18-19 H := h + 1; fence()", F,
                       "WS_STORE_FENCED(&q->H, (uint64_t)(h + 1));"},
    [STEAL_LOAD_T] = {"Fig.2b l.20 if (h + 1 <= T)", F,
                      "if (h + 1 <= atomic_load_explicit(&q->T, ws_seq_cst)) {"},
    [STEAL_SLOT] = {"Fig.2b l.21 ret := tasks[h mod W]", F,
                    "ret = ws_th_slot(q, h);"},
    [STEAL_RESTORE_H] = {"Fig.2b l.23-24 H := h; ret := EMPTY", F,
                         "atomic_store_explicit(&q->H, (uint64_t)h, ws_relaxed);"},
    [STEAL_UNLOCK] = {"Fig.2b l.26-27 unlock(); return ret", F,
                      "ws_th_unlock(q);"},
};

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in put/take, a thief in steal */
  int x = c->cfg->x;
  switch (w->pc) {
  /* __ws_take_the */
  case TAKE_LOAD_T:
    w->t = (int8_t)(vf_load(c, A_T) - 1);
    return vf_goto(c, TAKE_STORE_T);
  case TAKE_STORE_T:
    if (!(c->cfg->no_fence ? vf_store(c, A_T, w->t)
                           : vf_store_fenced(c, A_T, w->t)))
      return STEP_BLOCKED;
    vf_announce_take(c);
    return vf_goto(c, TAKE_LOAD_H);
  case TAKE_LOAD_H:
    w->h = (int8_t)vf_load(c, A_H);
    if (w->t >= w->h)
      return vf_goto(c, x ? TAKE_COUNT : TAKE_SLOT);
    return vf_goto(c, CONFLICT_LOCK);
  case TAKE_COUNT:
  case CONFLICT_COUNT:
    if (!vf_count_take(c))
      return STEP_BLOCKED;
    return vf_goto(c, w->pc == TAKE_COUNT ? TAKE_SLOT : CONFLICT_SLOT);
  case TAKE_SLOT:
  case CONFLICT_SLOT:
    return vf_take_return(c, RET_TASK, vf_load(c, VF_SLOT(w->t)));
  /* ws_the_take_conflict */
  case CONFLICT_LOCK:
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_LOAD_H);
  case CONFLICT_LOAD_H:
    if (vf_load(c, A_H) >= w->t + 1)
      return vf_goto(c, CONFLICT_RESTORE_T);
    return vf_goto(c, CONFLICT_UNLOCK);
  case CONFLICT_RESTORE_T: /* lost task t */
    if (!vf_store(c, A_T, w->t + 1))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_UNLOCK_STOLEN);
  case CONFLICT_UNLOCK_STOLEN: /* ws_th_unlock(q); return WS_STOLEN(...) */
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_take_return(c, RET_STOLEN, 0);
  case CONFLICT_UNLOCK:
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_goto(c, x ? CONFLICT_COUNT : CONFLICT_SLOT);
  /* the_steal */
  case STEAL_PEEK_T: /* C leaves the order of the two loads open; as written */
    w->t = (int8_t)vf_load(c, A_T);
    return vf_goto(c, STEAL_PEEK_H);
  case STEAL_PEEK_H:
    if (w->t <= vf_load(c, A_H))
      return vf_steal_return(c, RET_EMPTY_HINT);
    return vf_goto(c, STEAL_LOCK);
  case STEAL_LOCK:
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_H);
  case STEAL_LOAD_H:
    w->h = (int8_t)vf_load(c, A_H);
    return vf_goto(c, STEAL_STORE_H);
  case STEAL_STORE_H:
    if (!vf_store_fenced(c, A_H, w->h + 1))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_T);
  case STEAL_LOAD_T:
    if (w->h + 1 <= vf_load(c, A_T))
      return vf_goto(c, STEAL_SLOT);
    return vf_goto(c, STEAL_RESTORE_H);
  case STEAL_SLOT:
    w->ret = RET_TASK;
    if (vf_steal_commit(c, vf_load(c, VF_SLOT(w->h))) != STEP_OK)
      return STEP_VIOLATION;
    return vf_goto(c, STEAL_UNLOCK);
  case STEAL_RESTORE_H:
    if (!vf_store(c, A_H, w->h))
      return STEP_BLOCKED;
    w->ret = RET_EMPTY;
    return vf_goto(c, STEAL_UNLOCK);
  case STEAL_UNLOCK:
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_steal_return(c, w->ret);
  default:
    return vf_th_put_step(c);
  }
}

const vf_variant vf_the = {
    .name = "the",
    .has_fence = 1,
    .put_pc = TH_PUT_LOAD_T,
    .take_pc = TAKE_LOAD_T,
    .steal_pc = STEAL_PEEK_T,
    .steps = steps,
    .nsteps = NSTEPS,
    .step = step,
    .claimed_below = vf_th_claimed_below,
};
