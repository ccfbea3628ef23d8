/*
 * model_thep.c — runtime/src/deque_thep.c, step by step (paper 000 §5,
 * Fig. 5): FF-THE plus the worker's echo P.  H holds <s, h>, here packed as
 * s * 8 + h (the model's indices stay below 8, so no 32-bit wrap-around).
 */
#include "verify.h"

static int thep_s(int sh) { return sh / 8; }
static int thep_h(int sh) { return sh % 8; }
static int thep_pack(int s, int h) { return s * 8 + h; }

enum {
  TAKE_LOAD_T = TH_FIRST_FREE,
  TAKE_STORE_T,
  TAKE_LOAD_H,
  TAKE_STORE_P,
  TAKE_COUNT,
  TAKE_SLOT,
  CONFLICT_LOCK,
  CONFLICT_STORE_P,
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
  STEAL_WAIT_P,
  STEAL_WAIT_T,
  STEAL_LOAD_T2,
  STEAL_SLOT,
  STEAL_EMPTY,
  STEAL_SLOT_FAST,
  STEAL_UNLOCK,
  NSTEPS
};

#define F "deque_thep.c"
static const vf_step_info steps[NSTEPS] = {
    VF_TH_PUT_STEPS,
    [TAKE_LOAD_T] = {"Fig.5 l.90 t := T - 1", F,
                     "int64_t t = atomic_load_explicit(&q->T, ws_relaxed) - 1;"},
    [TAKE_STORE_T] = {"Fig.5 l.91 T := t", F,
                      "atomic_store_explicit(&q->T, t, ws_release);"},
    [TAKE_LOAD_H] = {"Fig.5 l.92-93 <s, h> := H; if (t < h)", F,
                     "uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);",
                     "if (ws_likely(thep_dist(t, thep_h(sh)) >= 0)) {"},
    [TAKE_STORE_P] = {"Fig.5 l.104 P := s", F,
                      "atomic_store_explicit(&q->P, (int64_t)thep_s(sh), ws_relaxed);"},
    [TAKE_COUNT] = {"§7.3 anti-coalescing store", F, "ws_count_take(w);"},
    [TAKE_SLOT] = {"Fig.5 l.106 return tasks[t mod W]", F,
                   "return ws_th_own(q, t);"},
    [CONFLICT_LOCK] = {"Fig.5 l.94 lock()", F, "ws_th_lock(q);"},
    [CONFLICT_STORE_P] = {"Fig.5 l.95 P := ⊥", F,
                          "atomic_store_explicit(&q->P, THEP_NO_ECHO, ws_relaxed);"},
    [CONFLICT_LOAD_H] = {"Fig.5 l.96-97 <s, h> := H; if (h >= t + 1)", F,
                         "uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);",
                         "if (thep_dist(t + 1, thep_h(sh)) <= 0) {"},
    [CONFLICT_RESTORE_T] = {"Fig.5 l.98 T := t + 1", F,
                            "atomic_store_explicit(&q->T, t + 1, ws_relaxed);"},
    [CONFLICT_UNLOCK_STOLEN] = {"Fig.5 l.99-100 unlock(); return EMPTY", F,
                                "return WS_STOLEN(ws_th_slot(q, t));"},
    [CONFLICT_UNLOCK] = {"Fig.5 l.102 unlock()", F, "ws_th_unlock(q);"},
    [CONFLICT_COUNT] = {"§7.3 anti-coalescing store", F, "ws_count_take(w);"},
    [CONFLICT_SLOT] = {"Fig.5 l.106 return tasks[t mod W]", F,
                       "return ws_th_own(q, t);"},
    [STEAL_PEEK_T] = {"(runtime) look before locking: T", F,
                      "if (thep_dist(atomic_load_explicit(&q->T, ws_relaxed),"},
    [STEAL_PEEK_H] = {"(runtime) look before locking: T <= h? EMPTY (a hint)", F,
                      "thep_h(atomic_load_explicit(&q->H, ws_relaxed))) <= 0)"},
    [STEAL_LOCK] = {"Fig.5 l.109 lock()", F, "ws_th_lock(q);"},
    [STEAL_LOAD_H] = {"Fig.5 l.110 <s, h> := H", F,
                      "uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);"},
    [STEAL_STORE_H] = {"Fig.5 l.111-112 H := <s+1, h+1>; fence()", F,
                       "WS_STORE_FENCED(&q->H, thep_pack(s + 1, h + 1));"},
    [STEAL_LOAD_T] = {"Fig.5 l.113 if (T - δ <= h)", F,
                      "if ((int64_t)thep_dist(atomic_load_explicit(&q->T, ws_seq_cst), h) <= delta) {"},
    [STEAL_WAIT_P] = {"Fig.5 l.114 while (P != s+1)", F,
                      "while (atomic_load_explicit(&q->P, ws_acquire) != (int64_t)(uint32_t)(s + 1)) {"},
    [STEAL_WAIT_T] = {"Fig.5 l.115-116 if (h+1 > T) goto l.122", F,
                      "if (thep_dist(atomic_load_explicit(&q->T, ws_acquire), h + 1) < 0)"},
    [STEAL_LOAD_T2] = {"Fig.5 l.118-119 t := T; if (h + 1 <= t)", F,
                       "if (thep_dist(atomic_load_explicit(&q->T, ws_acquire), h + 1) >= 0) {"},
    [STEAL_SLOT] = {"Fig.5 l.120 ret := tasks[h mod W]", F,
                    "ret = ws_th_slot(q, h);"},
    [STEAL_EMPTY] = {"Fig.5 l.122-123 H := <s+1, h>; ret := EMPTY", F,
                     "atomic_store_explicit(&q->H, thep_pack(s + 1, h), ws_relaxed);"},
    [STEAL_SLOT_FAST] = {"Fig.5 l.126 ret := tasks[h mod W]", F,
                         "ret = ws_th_slot(q, h);"},
    [STEAL_UNLOCK] = {"Fig.5 l.128-129 unlock(); return ret", F,
                      "ws_th_unlock(q);"},
};

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in put/take, a thief in steal */
  int x = c->cfg->x, delta = c->cfg->delta;
  switch (w->pc) {
  /* __ws_take_thep */
  case TAKE_LOAD_T:
    w->t = (int8_t)(vf_load(c, A_T) - 1);
    return vf_goto(c, TAKE_STORE_T);
  case TAKE_STORE_T: /* T := t, no fence */
    if (!vf_store(c, A_T, w->t))
      return STEP_BLOCKED;
    vf_announce_take(c);
    return vf_goto(c, TAKE_LOAD_H);
  case TAKE_LOAD_H: {
    int sh = vf_load(c, A_H);
    w->s = (int8_t)thep_s(sh);
    if (w->t >= thep_h(sh))
      return vf_goto(c, TAKE_STORE_P);
    return vf_goto(c, CONFLICT_LOCK);
  }
  case TAKE_STORE_P: /* P := s */
    if (!vf_store(c, A_P, w->s))
      return STEP_BLOCKED;
    return vf_goto(c, x ? TAKE_COUNT : TAKE_SLOT);
  case TAKE_COUNT:
  case CONFLICT_COUNT:
    if (!vf_count_take(c))
      return STEP_BLOCKED;
    return vf_goto(c, w->pc == TAKE_COUNT ? TAKE_SLOT : CONFLICT_SLOT);
  case TAKE_SLOT:
  case CONFLICT_SLOT:
    return vf_take_return(c, RET_TASK, vf_load(c, VF_SLOT(w->t)));
  /* ws_thep_take_conflict */
  case CONFLICT_LOCK:
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_STORE_P);
  case CONFLICT_STORE_P:
    if (!vf_store(c, A_P, VF_NO_ECHO))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_LOAD_H);
  case CONFLICT_LOAD_H: /* h >= t + 1: lost task t */
    if (thep_h(vf_load(c, A_H)) >= w->t + 1)
      return vf_goto(c, CONFLICT_RESTORE_T);
    return vf_goto(c, CONFLICT_UNLOCK);
  case CONFLICT_RESTORE_T:
    if (!vf_store(c, A_T, w->t + 1))
      return STEP_BLOCKED;
    return vf_goto(c, CONFLICT_UNLOCK_STOLEN);
  case CONFLICT_UNLOCK_STOLEN:
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_take_return(c, RET_STOLEN, 0);
  case CONFLICT_UNLOCK:
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_goto(c, x ? CONFLICT_COUNT : CONFLICT_SLOT);
  /* thep_steal */
  case STEAL_PEEK_T: /* C leaves the order of the two loads open; as written */
    w->t = (int8_t)vf_load(c, A_T);
    return vf_goto(c, STEAL_PEEK_H);
  case STEAL_PEEK_H:
    if (w->t - thep_h(vf_load(c, A_H)) <= 0)
      return vf_steal_return(c, RET_EMPTY_HINT);
    return vf_goto(c, STEAL_LOCK);
  case STEAL_LOCK:
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_H);
  case STEAL_LOAD_H: {
    int sh = vf_load(c, A_H);
    w->s = (int8_t)thep_s(sh);
    w->h = (int8_t)thep_h(sh);
    return vf_goto(c, STEAL_STORE_H);
  }
  case STEAL_STORE_H:
    if (!vf_store_fenced(c, A_H, thep_pack(w->s + 1, w->h + 1)))
      return STEP_BLOCKED;
    return vf_goto(c, STEAL_LOAD_T);
  case STEAL_LOAD_T: /* T - δ <= h: wait for the echo, unless the queue drains */
    if (vf_load(c, A_T) - w->h <= delta)
      return vf_goto(c, STEAL_WAIT_P);
    return vf_goto(c, STEAL_SLOT_FAST);
  case STEAL_WAIT_P:
    if (vf_load(c, A_P) == w->s + 1)
      return vf_goto(c, STEAL_LOAD_T2);
    return vf_goto(c, STEAL_WAIT_T);
  case STEAL_WAIT_T: /* h + 1 > T */
    if (vf_load(c, A_T) - (w->h + 1) < 0)
      return vf_goto(c, STEAL_EMPTY);
    return vf_goto(c, STEAL_WAIT_P);
  case STEAL_LOAD_T2: /* h + 1 <= t */
    if (vf_load(c, A_T) - (w->h + 1) >= 0)
      return vf_goto(c, STEAL_SLOT);
    return vf_goto(c, STEAL_EMPTY);
  case STEAL_SLOT:
  case STEAL_SLOT_FAST:
    w->ret = RET_TASK;
    if (vf_steal_commit(c, vf_load(c, VF_SLOT(w->h))) != STEP_OK)
      return STEP_VIOLATION;
    return vf_goto(c, STEAL_UNLOCK);
  case STEAL_EMPTY:
    if (!vf_store(c, A_H, thep_pack(w->s + 1, w->h)))
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

static void init(vf_state *s) { s->mem[A_P] = VF_NO_ECHO; }

static int claimed_below(const vf_state *s) { return thep_h(s->mem[A_H]); }

/* In the echo loop, neither exit holds: P != s+1 and T >= h+1. */
static int waiting(vf_ctx *c) {
  vf_thread *w = c->th;
  if (w->phase != PH_DEQUE || (w->pc != STEAL_WAIT_P && w->pc != STEAL_WAIT_T))
    return 0;
  return vf_load(c, A_P) != w->s + 1 && vf_load(c, A_T) >= w->h + 1;
}

const vf_variant vf_thep = {
    .name = "thep",
    .put_pc = TH_PUT_LOAD_T,
    .take_pc = TAKE_LOAD_T,
    .steal_pc = STEAL_PEEK_T,
    .steps = steps,
    .nsteps = NSTEPS,
    .init = init,
    .step = step,
    .claimed_below = claimed_below,
    .waiting = waiting,
};
