/*
 * model_ffthe.c — runtime/src/deque_ffthe.h (the take) and deque_ffthe.c, step by step (paper 000 §4,
 * Fig. 3): THE without the worker's fence; a thief steals slot h only when
 * T - delta > h.  take() makes the anti-coalescing store of §7.3 right
 * after it reads H, on both paths; --no-anticoalesce leaves it out.  The
 * owner's steps (vf_ffthe_take_step) are FF-MB's owner too.
 */
#include <stdio.h>

#include "model_tailhead.h"

enum {
  STEAL_PEEK_T = TH_FIRST_FREE,
  STEAL_PEEK_H,
  STEAL_LOCK,
  STEAL_LOAD_H,
  STEAL_STORE_H,
  STEAL_LOAD_T,
  STEAL_RESTORE_H,
  STEAL_UNLOCK,
  NSTEPS
};

#define F "deque_ffthe.c"
static const vf_step_info steps[NSTEPS] = {
    VF_TH_PUT_STEPS,
    VF_TH_RESET_STEPS,
    VF_FFTHE_TAKE_STEPS,
    [STEAL_PEEK_T] = {"(runtime) look before locking: T", F,
                      "int64_t avail = ws_th_dist(atomic_load_explicit(&q->T, ws_relaxed),"},
    [STEAL_PEEK_H] = {"(runtime) avail <= 0: EMPTY (a hint); avail <= δ: ABORT", F,
                      "atomic_load_explicit(&q->H, ws_relaxed));",
                      "if (avail <= delta) /* the real check below would fail too: don't lock */"},
    [STEAL_LOCK] = {"Fig.3 l.57 lock()", F, "ws_th_lock(q);"},
    [STEAL_LOAD_H] = {"Fig.3 l.58 h := H", F,
                      "uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);"},
    [STEAL_STORE_H] = {"Fig.3 l.59-60 H := h + 1; fence()", F,
                       "WS_STORE_FENCED(&q->H, ws_th_pack(0, h + 1));"},
    [STEAL_LOAD_T] = {"Fig.3 l.61-62 if (T - δ > h) ret := slot h", F,
                      "if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), H) > delta) { /* T - δ > h */"},
    [STEAL_RESTORE_H] = {"Fig.3 l.64-65 H := h; ret := ABORT", F,
                         "atomic_store_explicit(&q->H, H, ws_relaxed);"},
    [STEAL_UNLOCK] = {"Fig.3 l.67-68 unlock(); return ret", F,
                      "ws_th_unlock(q);"},
};

/* ffthe_take and ws_ffthe_take_conflict: the owner FF-MB shares. */
int vf_ffthe_take_step(vf_ctx *c) {
  vf_thread *w = c->th;
  switch (w->pc) {
  /* ffthe_take */
  case FFT_TAKE_STORE_T: /* T := t, no fence */
    if (!vf_store(c, A_T, vf_slot(c)))
      return STEP_BLOCKED;
    vf_announce_take(c);
    return vf_goto(c, FFT_TAKE_LOAD_H);
  case FFT_TAKE_LOAD_H:
    w->H = (int8_t)vf_load(c, A_H);
    if (!vf_dropped(c, DROP_ANTICOALESCE))
      return vf_goto(c, FFT_TAKE_ANTICOALESCE);
    if (vf_slot(c) >= VF_HEAD(w->H))
      return vf_take_return(c, 0);
    return vf_goto(c, FFT_CONFLICT_LOCK);
  case FFT_TAKE_ANTICOALESCE:
    if (!vf_store(c, A_SCRATCH, vf_slot(c)))
      return STEP_BLOCKED;
    if (vf_slot(c) >= VF_HEAD(w->H))
      return vf_take_return(c, 0);
    return vf_goto(c, FFT_CONFLICT_LOCK);
  /* ws_ffthe_take_conflict */
  case FFT_CONFLICT_LOCK:
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, FFT_CONFLICT_LOAD_H);
  case FFT_CONFLICT_LOAD_H:
    if (!(vf_slot(c) >= VF_HEAD(vf_load(c, A_H))))
      return vf_goto(c, FFT_CONFLICT_RESTORE_T);
    return vf_goto(c, FFT_CONFLICT_UNLOCK);
  case FFT_CONFLICT_RESTORE_T:
    if (!vf_store(c, A_T, vf_slot(c) + 1))
      return STEP_BLOCKED;
    return vf_goto(c, FFT_CONFLICT_UNLOCK_STOLEN);
  default: /* FFT_CONFLICT_UNLOCK_STOLEN, FFT_CONFLICT_UNLOCK */
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_take_return(c, w->pc == FFT_CONFLICT_UNLOCK_STOLEN);
  }
}

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in push/take/reset, a thief in steal */
  int delta = c->cfg->delta;
  switch (w->pc) {
  /* ffthe_steal */
  case STEAL_PEEK_T: /* C leaves the order of the two loads open; as written */
    w->t = (int8_t)vf_load(c, A_T);
    return vf_goto(c, STEAL_PEEK_H);
  case STEAL_PEEK_H: {
    int avail = w->t - VF_HEAD(vf_load(c, A_H));
    if (avail <= 0)
      return vf_steal_return(c, RET_EMPTY_HINT, 0);
    if (avail <= delta)
      return vf_steal_return(c, RET_ABORT, 0);
    return vf_goto(c, STEAL_LOCK);
  }
  case STEAL_LOCK:
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_H);
  case STEAL_LOAD_H:
    w->H = (int8_t)vf_load(c, A_H);
    w->h = (int8_t)VF_HEAD(w->H);
    return vf_goto(c, STEAL_STORE_H);
  case STEAL_STORE_H:
    if (!vf_store_fenced(c, A_H, VF_PACK(0, w->h + 1)))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_T);
  case STEAL_LOAD_T: /* T - δ > h */
    if (vf_load(c, A_T) - w->h > delta) {
      w->ret = RET_TASK;
      return vf_goto(c, STEAL_UNLOCK);
    }
    return vf_goto(c, STEAL_RESTORE_H);
  case STEAL_RESTORE_H:
    if (!vf_store(c, A_H, w->H))
      return STEP_BLOCKED;
    w->ret = RET_ABORT;
    return vf_goto(c, STEAL_UNLOCK);
  case STEAL_UNLOCK:
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_steal_return(c, w->ret, w->h);
  default:
    if (w->pc >= FFT_TAKE_STORE_T)
      return vf_ffthe_take_step(c);
    return vf_th_step(c);
  }
}

static void show(const int8_t *m) {
  vf_th_show(m);
  printf(" lock=%d\n", m[A_LOCK]);
}

const vf_variant vf_ffthe = {
    .name = "ffthe",
    .relaxed = 1,
    .drops = DROP_ANTICOALESCE | DROP_RESET_LOCK | DROP_RESET,
    .put_pc = TH_PUT_STORE_T,
    .take_pc = FFT_TAKE_STORE_T,
    .steal_pc = STEAL_PEEK_T,
    .reset_pc = TH_RESET_LOCK,
    .steps = steps,
    .nsteps = NSTEPS,
    .step = step,
    .claimed_below = vf_th_claimed_below,
    .show = show,
};
