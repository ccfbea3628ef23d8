/*
 * model_ffmb.c — runtime/src/deque_ffmb.c, step by step: FF-MB.  The owner
 * is FF-THE's (deque_ffthe.h: T := t with no fence, read H, the anti-coalescing
 * store; the conflict path of deque_ffthe.c), shared with model_ffthe.c
 * (vf_ffthe_take_step).  A thief locks, claims slot h with H := h + 1 and a
 * fence, and reads T.  If T - delta > h the bound proves the steal, as in
 * FF-THE.  Otherwise it forces a full barrier on the owner
 * (ws_barrier_victim, membarrier.c) and decides as THE does (paper 000
 * Fig. 2b): it reads T again and steals if h + 1 <= T, else restores H
 * and returns EMPTY.  --delta=inf: no S is trusted (delta_validated =
 * INT64_MAX), every steal takes the barrier.
 *
 * The barrier is one action of the thief that writes the owner's whole
 * store buffer (and B) to memory in order: what the membarrier IPI does to
 * a running owner, and what the signal fallback's handler does before it
 * answers.  An owner that is not running has nothing buffered (the switch
 * away from it drained its buffer), so the model's owner, always
 * "running", covers both.  --no-barrier leaves the call out: the negative
 * control, THE without the owner's fence.
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
  STEAL_BARRIER,
  STEAL_RELOAD_T,
  STEAL_RESTORE_H,
  STEAL_UNLOCK,
  NSTEPS
};

#define F "deque_ffmb.c"
static const vf_step_info steps[NSTEPS] = {
    VF_TH_PUT_STEPS,
    VF_TH_RESET_STEPS,
    VF_FFTHE_TAKE_STEPS,
    [STEAL_PEEK_T] = {"(runtime) look before locking: T", F,
                      "if (ws_th_dist(atomic_load_explicit(&q->T, ws_relaxed),"},
    [STEAL_PEEK_H] = {"(runtime) look before locking: T <= h? EMPTY (a hint)", F,
                      "atomic_load_explicit(&q->H, ws_relaxed)) <= 0) return WS_EMPTY;"},
    [STEAL_LOCK] = {"Fig.3 l.57 lock()", F, "ws_th_lock(q);"},
    [STEAL_LOAD_H] = {"Fig.3 l.58 h := H", F,
                      "uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);"},
    [STEAL_STORE_H] = {"Fig.3 l.59-60 H := h + 1; fence()", F,
                       "WS_STORE_FENCED(&q->H, ws_th_pack(0, h + 1)); /* the claim: H := h + 1; fence */"},
    [STEAL_LOAD_T] = {"Fig.3 l.61-62 if (T - δ > h) ret := slot h", F,
                      "if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), H) > delta) {"},
    [STEAL_BARRIER] = {"(FF-MB) barrier forced on the owner: its buffer drains", F,
                       "ws_barrier_victim(q->w); /* the owner's T := t is in memory, or it sees H */",
                       NULL, "membarrier.c",
                       {"if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)",
                        "atomic_thread_fence(memory_order_seq_cst);",
                        "while (atomic_load_explicit(&victim->barriers_answered, ws_acquire) == before)"}},
    [STEAL_RELOAD_T] = {"Fig.2b l.20-21 if (h + 1 <= T) ret := slot h", F,
                        "if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), H) >= 1) { /* h + 1 <= T */"},
    [STEAL_RESTORE_H] = {"Fig.2b l.23-24 H := h; ret := EMPTY", F,
                         "atomic_store_explicit(&q->H, H, ws_relaxed); ret = WS_EMPTY;"},
    [STEAL_UNLOCK] = {"Fig.3 l.67-68 unlock(); return ret", F,
                      "ws_th_unlock(q); return ret;"},
};

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in push/take/reset, a thief in steal */
  switch (w->pc) {
  /* ffmb_steal */
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
    if (!vf_store_fenced(c, A_H, VF_PACK(0, w->h + 1)))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_T);
  case STEAL_LOAD_T: /* T - δ > h: the bound proves it */
    if (vf_load(c, A_T) - w->h > c->cfg->delta) {
      w->ret = RET_TASK;
      return vf_goto(c, STEAL_UNLOCK);
    }
    return vf_goto(c, STEAL_BARRIER);
  case STEAL_BARRIER: /* a full barrier for the caller too (its buffer is
                        empty since the xchg) */
    if (vf_dropped(c, DROP_BARRIER))
      return vf_continue(c, STEAL_RELOAD_T);
    if (!vf_drained(w))
      return STEP_BLOCKED;
    vf_barrier_on(c, 0);
    return vf_goto(c, STEAL_RELOAD_T);
  case STEAL_RELOAD_T: /* h + 1 <= T */
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
    if (w->pc >= FFT_TAKE_STORE_T)
      return vf_ffthe_take_step(c);
    return vf_th_step(c);
  }
}

static void show(const int8_t *m) {
  vf_th_show(m);
  printf(" lock=%d\n", m[A_LOCK]);
}

const vf_variant vf_ffmb = {
    .name = "ffmb",
    .relaxed = 0, /* the barrier path returns EMPTY, never ABORT */
    .drops = DROP_ANTICOALESCE | DROP_RESET_LOCK | DROP_RESET | DROP_BARRIER,
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
