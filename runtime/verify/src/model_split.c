/*
 * model_split.c — runtime/src/deque_split.c, step by step (Lace's split
 * deque, paper 003 Fig. 4).  The owner's head, o_split and o_allstolen are
 * private fields: they live in the worker's registers.  --no-fence turns
 * shrink_shared's WS_STORE_FENCED (Fig. 4 l.47 MFENCE) into a plain store.
 */
#include "verify.h"

enum {
  PUSH_STORE_TASK = 1,
  PUSH_ALLSTOLEN_STORE_TS,
  PUSH_ALLSTOLEN_STORE_ALLSTOLEN,
  PUSH_ALLSTOLEN_LOAD_SPLITREQ,
  PUSH_ALLSTOLEN_CLEAR_SPLITREQ,
  PUSH_LOAD_SPLITREQ,
  GROW_STORE_SPLIT,
  GROW_CLEAR_SPLITREQ,
  TAKE_ENTRY,
  SHRINK_LOAD_TS,
  SHRINK_STORE_SPLIT,
  SHRINK_LOAD_TAIL,
  SHRINK_STORE_SPLIT2,
  SHRINK_STORE_ALLSTOLEN,
  TAKE_POP,
  TAKE_LOAD_SPLITREQ,
  TAKE_COUNT,
  TAKE_SLOT,
  POP_STOLEN_ENTRY,
  POP_STOLEN_STORE_ALLSTOLEN,
  STEAL_LOAD_ALLSTOLEN,
  STEAL_LOAD_TS,
  STEAL_CAS,
  STEAL_SLOT,
  STEAL_LOAD_SPLITREQ,
  STEAL_SET_SPLITREQ,
  NSTEPS
};

#define F "deque_split.c"
static const vf_step_info steps[NSTEPS] = {
    [PUSH_STORE_TASK] = {"Fig.4 l.12-13 write task at head; head += 1", F,
                         "__atomic_store_n(&q->tasks[q->head], task, __ATOMIC_RELAXED);"},
    [PUSH_ALLSTOLEN_STORE_TS] = {"Fig.4 l.14-15 (tail,split) := (head-1,head)", F,
                                 "atomic_store_explicit(&q->u.ts,"},
    [PUSH_ALLSTOLEN_STORE_ALLSTOLEN] = {"Fig.4 l.16 allstolen := 0", F,
                                       "atomic_store_explicit(&q->allstolen, 0, ws_release);"},
    [PUSH_ALLSTOLEN_LOAD_SPLITREQ] = {"Fig.4 l.17 if splitreq", F,
                                      "if (atomic_load_explicit(&q->splitreq, ws_relaxed))"},
    [PUSH_ALLSTOLEN_CLEAR_SPLITREQ] = {"Fig.4 l.17-19 splitreq := 0; o_split := head", F,
                                       "atomic_store_explicit(&q->splitreq, 0, ws_relaxed);"},
    [PUSH_LOAD_SPLITREQ] = {"Fig.4 l.20 elif splitreq: grow_shared()", F,
                            "else if (ws_unlikely(atomic_load_explicit(&q->splitreq, ws_relaxed)))"},
    [GROW_STORE_SPLIT] = {"Fig.4 l.37-39 split := (o_split+head+1)/2", F,
                          "atomic_store_explicit(&q->u.half.split, new_s, ws_release);"},
    [GROW_CLEAR_SPLITREQ] = {"Fig.4 l.40 splitreq := 0", F,
                             "atomic_store_explicit(&q->splitreq, 0, ws_relaxed);"},
    [TAKE_ENTRY] = {"Fig.4 l.22-25 head = 0? o_allstolen? o_split = head?", F,
                    "if (ws_unlikely(q->o_allstolen))",
                    "if (ws_unlikely(q->o_split == q->head) && ws_split_shrink_shared(w))"},
    [SHRINK_LOAD_TS] = {"Fig.4 l.42-43 (t,s) := (tail,split); if t != s", F,
                        "uint64_t ts = atomic_load_explicit(&q->u.ts, ws_acquire);",
                        "if (t != s) {"},
    [SHRINK_STORE_SPLIT] = {"Fig.4 l.44-47 split := (t+s)/2; MFENCE", F,
                            "WS_STORE_FENCED(&q->u.half.split, new_s);"},
    [SHRINK_LOAD_TAIL] = {"Fig.4 l.48-50 t := tail; if t != s; if t > new_s", F,
                          "t = atomic_load_explicit(&q->u.half.tail, ws_seq_cst);",
                          "if (t > new_s) {"},
    [SHRINK_STORE_SPLIT2] = {"Fig.4 l.51-54 split := (t+s)/2; return False", F,
                             "atomic_store_explicit(&q->u.half.split, new_s, ws_release);"},
    [SHRINK_STORE_ALLSTOLEN] = {"Fig.4 l.55-57 allstolen := 1; return True", F,
                                "atomic_store_explicit(&q->allstolen, 1, ws_release);"},
    [TAKE_POP] = {"Fig.4 l.27 head := head - 1", F, "q->head--;"},
    [TAKE_LOAD_SPLITREQ] = {"Fig.4 l.28 if splitreq: grow_shared()", F,
                            "if (ws_unlikely(atomic_load_explicit(&q->splitreq, ws_relaxed)))"},
    [TAKE_COUNT] = {"§7.3 anti-coalescing store", F, "ws_count_take(w);"},
    [TAKE_SLOT] = {"Fig.4 l.29 return WORK, Task(head)", F,
                   "return ws_own_slot(&q->tasks[q->head]);"},
    [POP_STOLEN_ENTRY] = {"Fig.4 l.32-33 head := head - 1; if !o_allstolen", F,
                          "if (!q->o_allstolen) {"},
    [POP_STOLEN_STORE_ALLSTOLEN] = {"Fig.4 l.34-35 allstolen := 1", F,
                                    "atomic_store_explicit(&q->allstolen, 1, ws_release);"},
    [STEAL_LOAD_ALLSTOLEN] = {"Fig.4 l.2 if allstolen: return None", F,
                              "if (atomic_load_explicit(&q->allstolen, ws_acquire))"},
    [STEAL_LOAD_TS] = {"Fig.4 l.3-4 (t,s) := (tail,split); if t < s", F,
                       "uint64_t ts = atomic_load_explicit(&q->u.ts, ws_acquire);",
                       "if (t < s) {"},
    [STEAL_CAS] = {"Fig.4 l.5,7 cas((tail,split),(t,s),(t+1,s)) else return None", F,
                   "if (atomic_compare_exchange_strong_explicit(&q->u.ts, &ts, ts + 1,"},
    [STEAL_SLOT] = {"Fig.4 l.6 return Task(t)", F, "return split_slot(q, t);"},
    [STEAL_LOAD_SPLITREQ] = {"Fig.4 l.8 if !splitreq", F,
                             "if (!atomic_load_explicit(&q->splitreq, ws_relaxed))"},
    [STEAL_SET_SPLITREQ] = {"Fig.4 l.8-9 splitreq := 1; return None", F,
                            "atomic_store_explicit(&q->splitreq, 1, ws_relaxed);"},
};

/* Where grow_shared returns to: push() is finished, take() goes on. */
enum { FROM_PUSH, FROM_TAKE };

static int take_tail(vf_ctx *c) {
  return vf_goto(c, c->cfg->x ? TAKE_COUNT : TAKE_SLOT);
}

static int push_done(vf_ctx *c) {
  vf_thread *w = c->th;
  if (w->caller == FROM_TAKE)
    return take_tail(c);
  return vf_put_return(c);
}

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in push/take/pop_stolen, a thief in steal */
  switch (w->pc) {
  /* __ws_push_split (head == size never holds: the model puts at most W) */
  case PUSH_STORE_TASK:
    if (!vf_store(c, VF_SLOT(w->head), c->cfg->worker[w->op].arg))
      return STEP_BLOCKED;
    w->head++;
    w->caller = FROM_PUSH;
    return vf_goto(c, w->o_allstolen ? PUSH_ALLSTOLEN_STORE_TS : PUSH_LOAD_SPLITREQ);
  /* ws_split_push_allstolen */
  case PUSH_ALLSTOLEN_STORE_TS:
    if (!vf_store(c, A_TS, VF_TS(w->head - 1, w->head)))
      return STEP_BLOCKED;
    return vf_goto(c, PUSH_ALLSTOLEN_STORE_ALLSTOLEN);
  case PUSH_ALLSTOLEN_STORE_ALLSTOLEN:
    if (!vf_store(c, A_ALLSTOLEN, 0))
      return STEP_BLOCKED;
    return vf_goto(c, PUSH_ALLSTOLEN_LOAD_SPLITREQ);
  case PUSH_ALLSTOLEN_LOAD_SPLITREQ:
    if (vf_load(c, A_SPLITREQ))
      return vf_goto(c, PUSH_ALLSTOLEN_CLEAR_SPLITREQ);
    w->o_split = w->head;
    w->o_allstolen = 0;
    return vf_put_return(c);
  case PUSH_ALLSTOLEN_CLEAR_SPLITREQ:
    if (!vf_store(c, A_SPLITREQ, 0))
      return STEP_BLOCKED;
    w->o_split = w->head;
    w->o_allstolen = 0;
    return vf_put_return(c);
  case PUSH_LOAD_SPLITREQ:
    if (vf_load(c, A_SPLITREQ))
      return vf_goto(c, GROW_STORE_SPLIT);
    return vf_put_return(c);
  /* ws_split_grow_shared */
  case GROW_STORE_SPLIT:
    w->new_s = (int8_t)((w->o_split + w->head + 1) / 2);
    if (!vf_store(c, A_SPLIT, w->new_s))
      return STEP_BLOCKED;
    w->o_split = (uint8_t)w->new_s;
    return vf_goto(c, GROW_CLEAR_SPLITREQ);
  case GROW_CLEAR_SPLITREQ:
    if (!vf_store(c, A_SPLITREQ, 0))
      return STEP_BLOCKED;
    return push_done(c);
  /* __ws_take_split: the owner-private checks, then the first access */
  case TAKE_ENTRY:
    if (w->head == 0)
      return vf_take_return(c, RET_EMPTY, 0);
    if (w->o_allstolen)
      return vf_take_return(c, RET_STOLEN, 0);
    w->caller = FROM_TAKE;
    if (w->o_split == w->head)
      return vf_continue(c, SHRINK_LOAD_TS);
    return vf_continue(c, TAKE_POP);
  /* ws_split_shrink_shared */
  case SHRINK_LOAD_TS:
    vf_load_ts(c, &w->t, &w->s);
    if (w->t != w->s) {
      w->new_s = (int8_t)((w->t + w->s) / 2);
      return vf_goto(c, SHRINK_STORE_SPLIT);
    }
    return vf_goto(c, SHRINK_STORE_ALLSTOLEN);
  case SHRINK_STORE_SPLIT: /* split := new_s; MFENCE (Fig. 4 line 47) */
    if (!(c->cfg->no_fence ? vf_store(c, A_SPLIT, w->new_s)
                           : vf_store_fenced(c, A_SPLIT, w->new_s)))
      return STEP_BLOCKED;
    w->o_split = (uint8_t)w->new_s;
    return vf_goto(c, SHRINK_LOAD_TAIL);
  case SHRINK_LOAD_TAIL: /* read again */
    w->t = (int8_t)vf_load(c, A_TAIL);
    if (w->t != w->s) {
      if (w->t > w->new_s) /* thieves got past the new split point */
        return vf_goto(c, SHRINK_STORE_SPLIT2);
      return vf_continue(c, TAKE_POP);
    }
    return vf_goto(c, SHRINK_STORE_ALLSTOLEN);
  case SHRINK_STORE_SPLIT2:
    w->new_s = (int8_t)((w->t + w->s) / 2);
    if (!vf_store(c, A_SPLIT, w->new_s))
      return STEP_BLOCKED;
    w->o_split = (uint8_t)w->new_s;
    return vf_goto(c, TAKE_POP);
  case SHRINK_STORE_ALLSTOLEN:
    if (!vf_store(c, A_ALLSTOLEN, 1))
      return STEP_BLOCKED;
    w->o_allstolen = 1;
    return vf_take_return(c, RET_STOLEN, 0);
  case TAKE_POP:
    w->head--;
    return vf_continue(c, TAKE_LOAD_SPLITREQ);
  case TAKE_LOAD_SPLITREQ:
    if (vf_load(c, A_SPLITREQ))
      return vf_goto(c, GROW_STORE_SPLIT);
    return take_tail(c);
  case TAKE_COUNT:
    if (!vf_count_take(c))
      return STEP_BLOCKED;
    return vf_goto(c, TAKE_SLOT);
  case TAKE_SLOT:
    return vf_take_return(c, RET_TASK, vf_load(c, VF_SLOT(w->head)));
  /* split_pop_stolen, after the join */
  case POP_STOLEN_ENTRY:
    w->head--;
    if (!w->o_allstolen)
      return vf_continue(c, POP_STOLEN_STORE_ALLSTOLEN);
    return vf_pop_stolen_return(c);
  case POP_STOLEN_STORE_ALLSTOLEN:
    if (!vf_store(c, A_ALLSTOLEN, 1))
      return STEP_BLOCKED;
    w->o_allstolen = 1;
    return vf_pop_stolen_return(c);
  /* split_steal */
  case STEAL_LOAD_ALLSTOLEN:
    if (vf_load(c, A_ALLSTOLEN))
      return vf_steal_return(c, RET_EMPTY);
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
      return vf_goto(c, STEAL_SLOT);
    /* lost to another thief or to the owner's split move */
    return vf_steal_return(c, RET_ABORT);
  case STEAL_SLOT:
    if (vf_steal_commit(c, vf_load(c, VF_SLOT(w->t))) != STEP_OK)
      return STEP_VIOLATION;
    return vf_steal_return(c, RET_TASK);
  case STEAL_LOAD_SPLITREQ:
    if (!vf_load(c, A_SPLITREQ))
      return vf_goto(c, STEAL_SET_SPLITREQ);
    return vf_steal_return(c, RET_EMPTY);
  default: /* STEAL_SET_SPLITREQ */
    if (!vf_store(c, A_SPLITREQ, 1))
      return STEP_BLOCKED;
    return vf_steal_return(c, RET_EMPTY);
  }
}

static void init(vf_state *s) {
  s->mem[A_ALLSTOLEN] = 1;
  s->th[0].o_allstolen = 1;
}

const vf_variant vf_split = {
    .name = "split",
    .relaxed = 1,
    .hides_private = 1,
    .has_fence = 1,
    .put_pc = PUSH_STORE_TASK,
    .take_pc = TAKE_ENTRY,
    .steal_pc = STEAL_LOAD_ALLSTOLEN,
    .pop_stolen_pc = POP_STOLEN_ENTRY,
    .steps = steps,
    .nsteps = NSTEPS,
    .init = init,
    .step = step,
};
