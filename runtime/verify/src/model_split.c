/*
 * model_split.c — runtime/src/deque_split.c, step by step (Lace's split
 * deque, paper 003 Fig. 4).  The owner's o_split is a private field: it
 * lives in the worker's registers (VF_ALLSTOLEN while everything is
 * stolen).  A push reads the owner's allstolen byte and the thieves'
 * splitreq byte of sp_flags in one load; thieves store splitreq, the owner
 * allstolen, each a byte.  --no-fence turns shrink_shared's
 * WS_STORE_FENCED (Fig. 4 l.47 MFENCE) into a plain store;
 * --no-reset-allstolen leaves set_allstolen out of the reset.
 */
#include <stdio.h>

#include "verify.h"

enum {
  PUSH_PEEK_FLAGS = 1,
  PUSH_ALLSTOLEN_STORE_TS,
  PUSH_ALLSTOLEN_LOAD_SPLITREQ,
  PUSH_ALLSTOLEN_CLEAR_SPLITREQ,
  PUSH_LOAD_SPLITREQ,
  SET_ALLSTOLEN,
  SET_SP_ALLSTOLEN,
  GROW_STORE_SPLIT,
  GROW_CLEAR_SPLITREQ,
  TAKE_ENTRY,
  TAKE_PEEK_SPLITREQ,
  SHRINK_LOAD_TS,
  SHRINK_STORE_SPLIT,
  SHRINK_LOAD_TAIL,
  SHRINK_STORE_SPLIT2,
  TAKE_SHARED_LOAD_SPLITREQ,
  RESET_STORE_T,
  STEAL_LOAD_ALLSTOLEN,
  STEAL_LOAD_TS,
  STEAL_CAS,
  STEAL_LOAD_SPLITREQ,
  STEAL_SET_SPLITREQ,
  NSTEPS
};

#define F "deque_split.c"
static const vf_step_info steps[NSTEPS] = {
    [PUSH_PEEK_FLAGS] = {"Fig.4 l.14-20 allstolen? splitreq? (one load of both)", F,
                         "if (ws_unlikely(ws_peek16(&q->sp_flags.any)))",
                         "if (q->o_split == WS_ALLSTOLEN) {"},
    [PUSH_ALLSTOLEN_STORE_TS] = {"Fig.4 l.14-15 (tail,split) := (head-1,head)", F,
                                 "atomic_store_explicit(&q->ts, ((uint64_t)h << 32) | (uint64_t)(h - 1),"},
    [PUSH_ALLSTOLEN_LOAD_SPLITREQ] = {"Fig.4 l.17 if splitreq", F,
                                      "if (atomic_load_explicit(&q->sp_flags.b.splitreq, ws_relaxed))"},
    [PUSH_ALLSTOLEN_CLEAR_SPLITREQ] = {"Fig.4 l.17-19 splitreq := 0", F,
                                       "atomic_store_explicit(&q->sp_flags.b.splitreq, 0, ws_relaxed);"},
    [PUSH_LOAD_SPLITREQ] = {"Fig.4 l.20 elif splitreq: grow_shared()", F,
                            "} else if (atomic_load_explicit(&q->sp_flags.b.splitreq, ws_relaxed)) {"},
    [SET_ALLSTOLEN] = {"Fig.4 l.16/l.35/l.56 allstolen := v (the thieves' word)", F,
                       "atomic_store_explicit(&q->allstolen, v, ws_release);"},
    [SET_SP_ALLSTOLEN] = {"(runtime) ... and the owner's byte of sp_flags", F,
                          "atomic_store_explicit(&q->sp_flags.b.allstolen, (uint8_t)v, ws_relaxed);"},
    [GROW_STORE_SPLIT] = {"Fig.4 l.37-39 split := (o_split+head+1)/2", F,
                          "atomic_store_explicit(split_half(q), new_s, ws_release);"},
    [GROW_CLEAR_SPLITREQ] = {"Fig.4 l.40 splitreq := 0", F,
                             "atomic_store_explicit(&q->sp_flags.b.splitreq, 0, ws_relaxed);"},
    [TAKE_ENTRY] = {"Fig.4 l.24-25 o_split = head? o_allstolen?", F,
                    "if (ws_unlikely(q->o_split > t))",
                    "if (q->o_split == WS_ALLSTOLEN || shrink_shared(q))"},
    [TAKE_PEEK_SPLITREQ] = {"Fig.4 l.27-28 head -= 1; if splitreq: grow_shared()", F,
                            "if (ws_unlikely(ws_peek8(&q->sp_flags.b.splitreq)))"},
    [SHRINK_LOAD_TS] = {"Fig.4 l.42-43 (t,s) := (tail,split); if t != s", F,
                        "uint64_t ts = atomic_load_explicit(&q->ts, ws_acquire);",
                        "if (t != s) {"},
    [SHRINK_STORE_SPLIT] = {"Fig.4 l.44-47 split := (t+s)/2; MFENCE", F,
                            "WS_STORE_FENCED(split_half(q), new_s);"},
    [SHRINK_LOAD_TAIL] = {"Fig.4 l.48-50 t := tail; if t != s; if t > new_s", F,
                          "t = atomic_load_explicit(tail_half(q), ws_seq_cst); /* read again */",
                          "if (t > new_s) { /* thieves got past the new split point */"},
    [SHRINK_STORE_SPLIT2] = {"Fig.4 l.51-54 split := (t+s)/2; return False", F,
                             "atomic_store_explicit(split_half(q), new_s, ws_release);"},
    [TAKE_SHARED_LOAD_SPLITREQ] = {"Fig.4 l.27-28 head -= 1; if splitreq: grow_shared()", F,
                                   "if (atomic_load_explicit(&q->sp_flags.b.splitreq, ws_relaxed))"},
    [RESET_STORE_T] = {"Fig.4 l.32-35 pop_stolen: T := t; if !o_allstolen", F,
                       "ws_store_tail(q, t);", "if (q->o_split != WS_ALLSTOLEN)"},
    [STEAL_LOAD_ALLSTOLEN] = {"Fig.4 l.2 if allstolen: return None", F,
                              "if (atomic_load_explicit(&q->allstolen, ws_acquire))"},
    [STEAL_LOAD_TS] = {"Fig.4 l.3-4 (t,s) := (tail,split); if t < s", F,
                       "uint64_t ts = atomic_load_explicit(&q->ts, ws_acquire);",
                       "if (t < s) {"},
    [STEAL_CAS] = {"Fig.4 l.5-7 cas((tail,split),(t,s),(t+1,s)): slot t, else None", F,
                   "if (atomic_compare_exchange_strong_explicit(&q->ts, &ts, ts + 1,"},
    [STEAL_LOAD_SPLITREQ] = {"Fig.4 l.8 if !splitreq", F,
                             "if (!atomic_load_explicit(&q->sp_flags.b.splitreq, ws_relaxed))"},
    [STEAL_SET_SPLITREQ] = {"Fig.4 l.8-9 splitreq := 1; return None", F,
                            "atomic_store_explicit(&q->sp_flags.b.splitreq, 1, ws_relaxed);"},
};

/* Where a shared piece (set_allstolen, grow_shared) returns to. */
enum { FROM_PUSH, FROM_TAKE, FROM_RESET };

static int back_to_caller(vf_ctx *c, int stolen) {
  switch (c->th->caller) {
  case FROM_PUSH:
    return vf_put_return(c);
  case FROM_TAKE:
    return vf_take_return(c, stolen);
  default:
    return vf_reset_return(c);
  }
}

/* The head grow_shared is called with: push's t + 1, take's t. */
static int head_of_caller(vf_ctx *c) {
  return vf_slot(c) + (c->th->caller == FROM_PUSH);
}

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in push/take/reset, a thief in steal */
  int t = vf_slot(c);   /* the worker's; a thief's t is w->t */
  switch (w->pc) {
  /* split_push, after compiled code wrote slot t */
  case PUSH_PEEK_FLAGS:
    if (!vf_load_pair(c, A_SPLITREQ, A_SP_ALLSTOLEN))
      return vf_put_return(c);
    w->caller = FROM_PUSH; /* ws_split_push_slow(q, t + 1) */
    if (w->o_split == VF_ALLSTOLEN)
      return vf_goto(c, PUSH_ALLSTOLEN_STORE_TS);
    return vf_goto(c, PUSH_LOAD_SPLITREQ);
  case PUSH_ALLSTOLEN_STORE_TS: /* h = index of head = t + 1 */
    if (!vf_store(c, A_TS, VF_TS(t, t + 1)))
      return STEP_BLOCKED;
    w->o_split = (int8_t)(t + 1);
    return vf_goto(c, SET_ALLSTOLEN); /* set_allstolen(q, 0) */
  case PUSH_ALLSTOLEN_LOAD_SPLITREQ:
    if (vf_load(c, A_SPLITREQ))
      return vf_goto(c, PUSH_ALLSTOLEN_CLEAR_SPLITREQ);
    return vf_put_return(c);
  case PUSH_ALLSTOLEN_CLEAR_SPLITREQ:
    if (!vf_store(c, A_SPLITREQ, 0))
      return STEP_BLOCKED;
    return vf_put_return(c);
  case PUSH_LOAD_SPLITREQ:
    if (vf_load(c, A_SPLITREQ))
      return vf_goto(c, GROW_STORE_SPLIT);
    return vf_put_return(c);
  /* set_allstolen(q, v): v = 0 from push, 1 from shrink_shared and reset */
  case SET_ALLSTOLEN:
    if (!vf_store(c, A_ALLSTOLEN, w->caller != FROM_PUSH))
      return STEP_BLOCKED;
    return vf_goto(c, SET_SP_ALLSTOLEN);
  case SET_SP_ALLSTOLEN:
    if (!vf_store(c, A_SP_ALLSTOLEN, w->caller != FROM_PUSH))
      return STEP_BLOCKED;
    if (w->caller != FROM_PUSH)
      w->o_split = VF_ALLSTOLEN;
    if (w->caller == FROM_PUSH)
      return vf_goto(c, PUSH_ALLSTOLEN_LOAD_SPLITREQ);
    return back_to_caller(c, 1);
  /* ws_split_grow_shared(q, head) */
  case GROW_STORE_SPLIT:
    w->new_s = (int8_t)((w->o_split + head_of_caller(c) + 1) / 2);
    if (!vf_store(c, A_SPLIT, w->new_s))
      return STEP_BLOCKED;
    w->o_split = w->new_s;
    return vf_goto(c, GROW_CLEAR_SPLITREQ);
  case GROW_CLEAR_SPLITREQ:
    if (!vf_store(c, A_SPLITREQ, 0))
      return STEP_BLOCKED;
    return back_to_caller(c, 0);
  /* split_take: the owner-private test, then the first access */
  case TAKE_ENTRY:
    w->caller = FROM_TAKE;
    if (!(w->o_split > t))
      return vf_continue(c, TAKE_PEEK_SPLITREQ);
    if (w->o_split == VF_ALLSTOLEN) /* ws_split_take_shared */
      return vf_take_return(c, 1);
    return vf_continue(c, SHRINK_LOAD_TS);
  case TAKE_PEEK_SPLITREQ:
    if (vf_load(c, A_SPLITREQ))
      return vf_goto(c, GROW_STORE_SPLIT);
    return vf_take_return(c, 0);
  /* shrink_shared */
  case SHRINK_LOAD_TS:
    vf_load_ts(c, &w->t, &w->s);
    if (w->t != w->s) {
      w->new_s = (int8_t)((w->t + w->s) / 2);
      return vf_goto(c, SHRINK_STORE_SPLIT);
    }
    return vf_goto(c, SET_ALLSTOLEN);
  case SHRINK_STORE_SPLIT: /* split := new_s; MFENCE (Fig. 4 line 47) */
    if (!(vf_dropped(c, DROP_FENCE) ? vf_store(c, A_SPLIT, w->new_s)
                                    : vf_store_fenced(c, A_SPLIT, w->new_s)))
      return STEP_BLOCKED;
    w->o_split = w->new_s;
    return vf_goto(c, SHRINK_LOAD_TAIL);
  case SHRINK_LOAD_TAIL: /* read again */
    w->t = (int8_t)vf_load(c, A_TAIL);
    if (w->t != w->s) {
      if (w->t > w->new_s) /* thieves got past the new split point */
        return vf_goto(c, SHRINK_STORE_SPLIT2);
      return vf_goto(c, TAKE_SHARED_LOAD_SPLITREQ);
    }
    return vf_goto(c, SET_ALLSTOLEN);
  case SHRINK_STORE_SPLIT2:
    w->new_s = (int8_t)((w->t + w->s) / 2);
    if (!vf_store(c, A_SPLIT, w->new_s))
      return STEP_BLOCKED;
    w->o_split = w->new_s;
    return vf_goto(c, TAKE_SHARED_LOAD_SPLITREQ);
  case TAKE_SHARED_LOAD_SPLITREQ:
    if (vf_load(c, A_SPLITREQ))
      return vf_goto(c, GROW_STORE_SPLIT);
    return vf_take_return(c, 0);
  /* split_reset, after the join of stolen slot t */
  case RESET_STORE_T:
    if (!vf_store(c, A_T, t))
      return STEP_BLOCKED;
    if (w->o_split != VF_ALLSTOLEN && !vf_dropped(c, DROP_RESET_ALLSTOLEN)) {
      w->caller = FROM_RESET;
      return vf_goto(c, SET_ALLSTOLEN);
    }
    return vf_reset_return(c);
  /* split_steal */
  case STEAL_LOAD_ALLSTOLEN:
    if (vf_load(c, A_ALLSTOLEN))
      return vf_steal_return(c, RET_EMPTY, 0);
    return vf_goto(c, STEAL_LOAD_TS);
  case STEAL_LOAD_TS:
    vf_load_ts(c, &w->t, &w->s);
    if (w->t < w->s)
      return vf_goto(c, STEAL_CAS);
    return vf_goto(c, STEAL_LOAD_SPLITREQ);
  case STEAL_CAS:
    if (!vf_drained(w))
      return STEP_BLOCKED;
    if (vf_cas_ts(c, w->t, w->s))
      return vf_steal_return(c, RET_TASK, w->t);
    /* lost to another thief or to the owner's split move */
    return vf_steal_return(c, RET_ABORT, 0);
  case STEAL_LOAD_SPLITREQ:
    if (!vf_load(c, A_SPLITREQ))
      return vf_goto(c, STEAL_SET_SPLITREQ);
    return vf_steal_return(c, RET_EMPTY, 0);
  default: /* STEAL_SET_SPLITREQ */
    if (!vf_store(c, A_SPLITREQ, 1))
      return STEP_BLOCKED;
    return vf_steal_return(c, RET_EMPTY, 0);
  }
}

/* split_init: set_allstolen(q, 1). */
static void init(vf_state *s) {
  s->mem[A_ALLSTOLEN] = 1;
  s->mem[A_SP_ALLSTOLEN] = 1;
  s->th[0].o_split = VF_ALLSTOLEN;
}

static void show(const int8_t *m) {
  printf(" | memory: tail=%d split=%d allstolen=%d sp_flags=(splitreq=%d,"
         "allstolen=%d) T=%d\n",
         m[A_TAIL], m[A_SPLIT], m[A_ALLSTOLEN], m[A_SPLITREQ], m[A_SP_ALLSTOLEN],
         m[A_T]);
}

const vf_variant vf_split = {
    .name = "split",
    .relaxed = 1,
    .hides_private = 1,
    .drops = DROP_FENCE | DROP_RESET_ALLSTOLEN | DROP_RESET,
    .put_pc = PUSH_PEEK_FLAGS,
    .take_pc = TAKE_ENTRY,
    .steal_pc = STEAL_LOAD_ALLSTOLEN,
    .reset_pc = RESET_STORE_T,
    .steps = steps,
    .nsteps = NSTEPS,
    .init = init,
    .step = step,
    .show = show,
};
