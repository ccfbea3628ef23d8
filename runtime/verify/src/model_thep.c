/*
 * model_thep.c — runtime/src/deque_thep.c, step by step (paper 000 §5,
 * Fig. 5): FF-THE plus the worker's echo.  H holds <s, h> (VF_PACK); the
 * echo stores all of H into P (P := H holds s), and a waiting thief
 * compares P's tag with its s+1.  The model's ⊥ is -1, which no packed H
 * equals (the runtime's is 1: no H is odd, its low half is a slot address).
 */
#include <stdio.h>

#include "model_tailhead.h"

enum {
  TAKE_STORE_T = TH_FIRST_FREE,
  TAKE_LOAD_H,
  TAKE_ECHO,
  CONFLICT_LOCK,
  CONFLICT_STORE_P,
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
  STEAL_WAIT_P,
  STEAL_WAIT_T,
  STEAL_LOAD_T2,
  STEAL_EMPTY,
  STEAL_UNLOCK,
  NSTEPS
};

#define F "deque_thep.c"
static const vf_step_info steps[NSTEPS] = {
    VF_TH_PUT_STEPS,
    VF_TH_RESET_STEPS,
    [TAKE_STORE_T] = {"Fig.5 l.91 T := t", F, "ws_store_tail(q, t);"},
    [TAKE_LOAD_H] = {"Fig.5 l.92-93 <s, h> := H; if (t < h)", F,
                     "uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed); /* <s, h> := H */",
                     "if (ws_likely(ws_th_at_or_above(t, sh))) {"},
    [TAKE_ECHO] = {"Fig.5 l.104 P := s (as P := H)", F, "ws_store_echo(q, sh);"},
    [CONFLICT_LOCK] = {"Fig.5 l.94 lock()", F, "ws_th_lock(q);"},
    [CONFLICT_STORE_P] = {"Fig.5 l.95 P := ⊥", F,
                          "atomic_store_explicit(&q->P, THEP_NO_ECHO, ws_relaxed);"},
    [CONFLICT_LOAD_H] = {"Fig.5 l.96-97 <s, h> := H; if (h >= t + 1)", F,
                         "uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);",
                         "if (!ws_th_at_or_above(t, sh)) { /* h >= t + 1: lost task t */"},
    [CONFLICT_RESTORE_T] = {"Fig.5 l.98 T := t + 1", F,
                            "atomic_store_explicit(&q->T, t + 1, ws_relaxed);"},
    [CONFLICT_UNLOCK_STOLEN] = {"Fig.5 l.99-100 unlock(); return EMPTY", F,
                                "ws_th_unlock(q);"},
    [CONFLICT_UNLOCK] = {"Fig.5 l.102-106 unlock(); return tasks[t]", F,
                         "ws_th_unlock(q);"},
    [STEAL_PEEK_T] = {"(runtime) look before locking: T", F,
                      "if (ws_th_dist(atomic_load_explicit(&q->T, ws_relaxed),"},
    [STEAL_PEEK_H] = {"(runtime) look before locking: T <= h? EMPTY (a hint)", F,
                      "atomic_load_explicit(&q->H, ws_relaxed)) <= 0)"},
    [STEAL_LOCK] = {"Fig.5 l.109 lock()", F, "ws_th_lock(q);"},
    [STEAL_LOAD_H] = {"Fig.5 l.110 <s, h> := H", F,
                      "uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);"},
    [STEAL_STORE_H] = {"Fig.5 l.111-112 H := <s+1, h+1>; fence()", F,
                       "WS_STORE_FENCED(&q->H, ws_th_pack(s + 1, h + 1));"},
    [STEAL_LOAD_T] = {"Fig.5 l.113 if (T - δ <= h)", F,
                      "if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), sh) <= delta) {"},
    [STEAL_WAIT_P] = {"Fig.5 l.114 while (P != s+1): P = ⊥ or tag(P) != s+1", F,
                      "for (uint64_t p; (p = atomic_load_explicit(&q->P, ws_acquire)) == THEP_NO_ECHO ||",
                      "ws_th_tag(p) != s + 1;) {"},
    [STEAL_WAIT_T] = {"Fig.5 l.115-116 if (h+1 > T) goto l.122", F,
                      "if (ws_th_dist(atomic_load_explicit(&q->T, ws_acquire), sh) < 1)"},
    [STEAL_LOAD_T2] = {"Fig.5 l.118-120 t := T; if (h + 1 <= t) ret := slot h", F,
                       "if (ws_th_dist(atomic_load_explicit(&q->T, ws_acquire), sh) >= 1) {"},
    [STEAL_EMPTY] = {"Fig.5 l.122-123 H := <s+1, h>; ret := EMPTY", F,
                     "atomic_store_explicit(&q->H, ws_th_pack(s + 1, h), ws_relaxed);"},
    [STEAL_UNLOCK] = {"Fig.5 l.128-129 unlock(); return ret", F,
                      "ws_th_unlock(q);"},
};

/* The echo loop's exit: P holds an H whose tag is s+1. */
static int echoed(int p, int s) { return p != VF_NO_ECHO && VF_TAG(p) == s + 1; }

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in push/take/reset, a thief in steal */
  int delta = c->cfg->delta;
  switch (w->pc) {
  /* thep_take */
  case TAKE_STORE_T: /* T := t, no fence */
    if (!vf_store(c, A_T, vf_slot(c)))
      return STEP_BLOCKED;
    vf_announce_take(c);
    return vf_goto(c, TAKE_LOAD_H);
  case TAKE_LOAD_H:
    w->H = (int8_t)vf_load(c, A_H);
    if (vf_slot(c) >= VF_HEAD(w->H))
      return vf_goto(c, TAKE_ECHO);
    return vf_goto(c, CONFLICT_LOCK);
  case TAKE_ECHO: /* P := H */
    if (!vf_store(c, A_P, w->H))
      return STEP_BLOCKED;
    return vf_take_return(c, 0);
  /* ws_thep_take_conflict */
  case CONFLICT_LOCK:
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_STORE_P);
  case CONFLICT_STORE_P:
    if (!vf_store(c, A_P, VF_NO_ECHO))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_LOAD_H);
  case CONFLICT_LOAD_H:
    if (!(vf_slot(c) >= VF_HEAD(vf_load(c, A_H))))
      return vf_goto(c, CONFLICT_RESTORE_T);
    return vf_goto(c, CONFLICT_UNLOCK);
  case CONFLICT_RESTORE_T:
    if (!vf_store(c, A_T, vf_slot(c) + 1))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_UNLOCK_STOLEN);
  case CONFLICT_UNLOCK_STOLEN:
  case CONFLICT_UNLOCK:
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_take_return(c, w->pc == CONFLICT_UNLOCK_STOLEN);
  /* thep_steal */
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
    w->s = (int8_t)VF_TAG(w->H);
    w->h = (int8_t)VF_HEAD(w->H);
    return vf_goto(c, STEAL_STORE_H);
  case STEAL_STORE_H:
    if (!vf_store_fenced(c, A_H, VF_PACK(w->s + 1, w->h + 1)))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_T);
  case STEAL_LOAD_T: /* T - δ <= h: wait for the echo, unless the queue drains */
    if (vf_load(c, A_T) - w->h <= delta)
      return vf_goto(c, STEAL_WAIT_P);
    w->ret = RET_TASK;
    return vf_goto(c, STEAL_UNLOCK);
  case STEAL_WAIT_P:
    if (!echoed(vf_load(c, A_P), w->s))
      return vf_goto(c, STEAL_WAIT_T);
    return vf_goto(c, STEAL_LOAD_T2);
  case STEAL_WAIT_T: /* h + 1 > T */
    if (vf_load(c, A_T) - w->h < 1)
      return vf_goto(c, STEAL_EMPTY);
    return vf_goto(c, STEAL_WAIT_P);
  case STEAL_LOAD_T2: /* h + 1 <= t */
    if (vf_load(c, A_T) - w->h >= 1) {
      w->ret = RET_TASK;
      return vf_goto(c, STEAL_UNLOCK);
    }
    return vf_goto(c, STEAL_EMPTY);
  case STEAL_EMPTY:
    if (!vf_store(c, A_H, VF_PACK(w->s + 1, w->h)))
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

static void init(vf_state *s) { s->mem[A_P] = VF_NO_ECHO; }

/* In the echo loop, neither exit holds: no echo of s+1 and T >= h+1. */
static int waiting(vf_ctx *c) {
  vf_thread *w = c->th;
  if (w->phase != PH_DEQUE || (w->pc != STEAL_WAIT_P && w->pc != STEAL_WAIT_T))
    return 0;
  return !echoed(vf_load(c, A_P), w->s) && vf_load(c, A_T) - w->h >= 1;
}

static void show(const int8_t *m) {
  vf_th_show(m);
  if (m[A_P] == VF_NO_ECHO)
    printf(" P=⊥ lock=%d\n", m[A_LOCK]);
  else
    printf(" P=<%d,%d> lock=%d\n", VF_TAG(m[A_P]), VF_HEAD(m[A_P]), m[A_LOCK]);
}

const vf_variant vf_thep = {
    .name = "thep",
    .drops = DROP_RESET_LOCK | DROP_RESET,
    .put_pc = TH_PUT_STORE_T,
    .take_pc = TAKE_STORE_T,
    .steal_pc = STEAL_PEEK_T,
    .reset_pc = TH_RESET_LOCK,
    .steps = steps,
    .nsteps = NSTEPS,
    .init = init,
    .step = step,
    .claimed_below = vf_th_claimed_below,
    .waiting = waiting,
    .show = show,
};
