/*
 * model_private.c — runtime/src/deque_private.c, step by step: private
 * deques with receiver-initiated handover (Acar et al., PPoPP'13, as in
 * Lace, paper 003 §4).  The deque is the owner's alone: o_head (the oldest
 * task not handed over) lives in the worker's registers.  A thief stores
 * WAIT into its transfer cell, CASes its id into the owner's request cell
 * and waits on its transfer cell; the owner answers at its push and take
 * and, while it waits at a join, in the join's loop (ops->idle); it closes
 * the cell when it stops (ops->quiesce; --no-quiesce leaves it out).
 * The owner claims a request (CAS to ANSWERING) before it answers, and a
 * waiting thief may take its request back (CAS from its id to none): the
 * runtime does so after a while, or at once when calls are queued; here at
 * any moment, once a steal (a second try could only fail: nobody else
 * writes the thief's id).  --no-claim answers without the claim, the
 * negative control: a request taken back between the owner's load and its
 * answer loses the task handed over.  --no-take-back waits forever, as
 * the code did before; only then does a worker that stops without closing
 * its cell (--no-quiesce) leave a thief hanging.
 *
 * Left out: a waiting thief also answers requests to its own deque, which
 * no thread of the scenario makes.
 */
#include <stdio.h>

#include "verify.h"

enum {
  POLL_PEEK = 1,
  TAKE_ENTRY,
  ANSWER_LOAD_REQUEST,
  ANSWER_CLAIM,
  ANSWER_STORE_TRANSFER,
  ANSWER_STORE_REQUEST,
  IDLE_LOAD_T,
  RESET_STORE_T,
  QUIESCE_XCHG,
  QUIESCE_STORE_TRANSFER,
  STEAL_STORE_WAIT,
  STEAL_CAS,
  STEAL_WAIT,
  STEAL_TAKE_BACK,
  NSTEPS
};

#define F "deque_private.c"
static const vf_step_info steps[NSTEPS] = {
    [POLL_PEEK] = {"(private) a request? answer it", F,
                   "if (ws_unlikely((int32_t)ws_peek32(&q->request) >= 0))"},
    [TAKE_ENTRY] = {"(private) take: handed over to a thief?", F,
                    "if (ws_unlikely(t < q->o_head))"},
    [ANSWER_LOAD_REQUEST] = {"(private) answer: j := request", F,
                             "int j = atomic_load_explicit(&q->request, ws_acquire);"},
    [ANSWER_CLAIM] = {"(private) answer: CAS(request, j, ANSWERING); the oldest task below head", F,
                      "if (j < 0 || !atomic_compare_exchange_strong_explicit(",
                      "&q->request, &j, WS_REQUEST_ANSWERING, ws_acq_rel,",
                      "if (q->o_head < head)"},
    [ANSWER_STORE_TRANSFER] = {"(private) answer: thief j's transfer := give", F,
                               "atomic_store_explicit(&ws_rt.workers[j]->dq->transfer, give, ws_release);"},
    [ANSWER_STORE_REQUEST] = {"(private) answer: request := none", F,
                              "atomic_store_explicit(&q->request, WS_NO_REQUEST, ws_release);"},
    [IDLE_LOAD_T] = {"(private) idle at the join: answer with head := T", F,
                     "ws_private_answer(q, atomic_load_explicit(&q->T, ws_relaxed));"},
    [RESET_STORE_T] = {"(private) reset after the join: o_head := t; T := t", F,
                       "atomic_store_explicit(&q->T, t, ws_relaxed);"},
    [QUIESCE_XCHG] = {"(private) the worker stops: request := closed", F,
                      "int j = atomic_exchange_explicit(&q->request, WS_REQUESTS_CLOSED, ws_acq_rel);",
                      "if (j >= 0)"},
    [QUIESCE_STORE_TRANSFER] = {"(private) ... and answers the last request: no work", F,
                                "atomic_store_explicit(&ws_rt.workers[j]->dq->transfer, WS_EMPTY,"},
    [STEAL_STORE_WAIT] = {"(private) steal: my transfer := WAIT", F,
                          "atomic_store_explicit(&me->transfer, WS_TRANSFER_WAIT, ws_relaxed);"},
    [STEAL_CAS] = {"(private) steal: CAS(request, none, me); busy: ABORT, closed: EMPTY", F,
                   "if (!atomic_compare_exchange_strong_explicit(&victim->request, &expect,",
                   "return expect == WS_REQUESTS_CLOSED ? WS_EMPTY : WS_ABORT;"},
    [STEAL_WAIT] = {"(private) steal: wait for the answer in my transfer cell", F,
                    "while ((r = atomic_load_explicit(&me->transfer, ws_acquire)) =="},
    [STEAL_TAKE_BACK] = {"(private) steal: take the request back: CAS(request, me, none)", F,
                         "if (atomic_compare_exchange_strong_explicit(&victim->request, &mine,",
                         "return WS_ABORT; /* taken back before the owner saw it */"},
};

/* Where ws_private_answer returns to. */
enum { FROM_PUSH, FROM_TAKE, FROM_IDLE };

static int back_to_caller(vf_ctx *c) {
  switch (c->th->caller) {
  case FROM_PUSH:
    return vf_put_return(c);
  case FROM_TAKE:
    return vf_take_return(c, 0);
  default:
    return vf_idle_return(c);
  }
}

static int step(vf_ctx *c) {
  vf_thread *w = c->th; /* the worker in push/take/join/reset, a thief in steal */
  switch (w->pc) {
  /* private_poll(q, head): push's head is t + 1, take's t */
  case POLL_PEEK:
    if (vf_load(c, A_REQUEST) < 0)
      return back_to_caller(c);
    w->h = (int8_t)(vf_slot(c) + (w->caller == FROM_PUSH));
    return vf_goto(c, ANSWER_LOAD_REQUEST);
  case TAKE_ENTRY:
    if (vf_slot(c) < w->o_head)
      return vf_take_return(c, 1); /* handed to a thief */
    w->caller = FROM_TAKE;
    return vf_continue(c, POLL_PEEK);
  /* ws_private_answer(q, head = w->h) */
  case ANSWER_LOAD_REQUEST:
    w->j = (int8_t)vf_load(c, A_REQUEST);
    if (w->j < 0)
      return back_to_caller(c);
    return vf_goto(c, ANSWER_CLAIM);
  case ANSWER_CLAIM:
    if (!(c->cfg->drop & DROP_CLAIM)) {
      if (!vf_drained(w))
        return STEP_BLOCKED;
      if (!vf_cas(c, A_REQUEST, w->j, VF_REQUEST_ANSWERING))
        return back_to_caller(c);
    }
    w->task = VF_EMPTY_SLOT; /* give */
    if (w->o_head < w->h)
      w->task = w->o_head++;
    return vf_goto(c, ANSWER_STORE_TRANSFER);
  case ANSWER_STORE_TRANSFER:
    if (!vf_store(c, A_TRANSFER0 + w->j - 1, w->task))
      return STEP_BLOCKED;
    return vf_goto(c, ANSWER_STORE_REQUEST);
  case ANSWER_STORE_REQUEST:
    if (!vf_store(c, A_REQUEST, VF_NO_REQUEST))
      return STEP_BLOCKED;
    return back_to_caller(c);
  /* ws_private_answer_idle, in __ws_join's loop */
  case IDLE_LOAD_T:
    w->h = (int8_t)vf_load(c, A_T);
    w->caller = FROM_IDLE;
    return vf_goto(c, ANSWER_LOAD_REQUEST);
  /* private_reset */
  case RESET_STORE_T:
    w->o_head = (int8_t)vf_slot(c);
    if (!vf_store(c, A_T, vf_slot(c)))
      return STEP_BLOCKED;
    return vf_reset_return(c);
  /* private_quiesce */
  case QUIESCE_XCHG:
    if (!vf_drained(w))
      return STEP_BLOCKED;
    w->j = (int8_t)vf_xchg(c, A_REQUEST, VF_REQUESTS_CLOSED);
    if (w->j >= 0)
      return vf_goto(c, QUIESCE_STORE_TRANSFER);
    return vf_quiesce_return(c);
  case QUIESCE_STORE_TRANSFER:
    if (!vf_store(c, A_TRANSFER0 + w->j - 1, VF_EMPTY_SLOT))
      return STEP_BLOCKED;
    return vf_quiesce_return(c);
  /* private_steal */
  case STEAL_STORE_WAIT:
    if (!vf_store(c, A_TRANSFER0 + c->tid - 1, VF_TRANSFER_WAIT))
      return STEP_BLOCKED;
    w->H = 0; /* not taken back yet */
    return vf_goto(c, STEAL_CAS);
  case STEAL_CAS: {
    if (!vf_drained(w))
      return STEP_BLOCKED;
    int expect = c->s->mem[A_REQUEST];
    if (!vf_cas(c, A_REQUEST, VF_NO_REQUEST, c->tid))
      return vf_steal_return(c, expect == VF_REQUESTS_CLOSED ? RET_EMPTY : RET_ABORT, 0);
    return vf_goto(c, STEAL_WAIT);
  }
  case STEAL_TAKE_BACK:
    if (!vf_drained(w))
      return STEP_BLOCKED;
    w->H = 1;
    if (vf_cas(c, A_REQUEST, c->tid, VF_NO_REQUEST))
      return vf_steal_return(c, RET_ABORT, 0);
    return vf_goto(c, STEAL_WAIT);
  default: { /* STEAL_WAIT: the loop only re-reads the cell, so it blocks
              * (once it may take the request back instead) */
    int r = vf_load(c, A_TRANSFER0 + c->tid - 1);
    if (r == VF_TRANSFER_WAIT)
      return w->H || (c->cfg->drop & DROP_TAKE_BACK) ? STEP_BLOCKED
                                                     : vf_goto(c, STEAL_TAKE_BACK);
    if (r == VF_EMPTY_SLOT)
      return vf_steal_return(c, RET_EMPTY, 0);
    return vf_steal_return(c, RET_TASK, r);
  }
  }
}

static void init(vf_state *s) {
  s->mem[A_REQUEST] = VF_NO_REQUEST;
  for (int k = 0; k < VF_MAX_THIEVES; k++)
    s->mem[A_TRANSFER0 + k] = VF_EMPTY_SLOT;
}

/* In the join's loop, with nothing to do: the task is not done and no
 * request waits (the loop's loads see only memory then: no buffered store). */
static int waiting(vf_ctx *c) {
  vf_thread *w = c->th;
  if (c->tid != 0)
    return 0;
  const vf_op *op = &c->cfg->worker[w->op];
  int in_loop = (w->phase == PH_CLIENT && w->pc == C_JOIN_WAIT) ||
                (w->phase == PH_DEQUE && (w->pc == IDLE_LOAD_T ||
                                          ((w->pc == ANSWER_LOAD_REQUEST ||
                                            w->pc == ANSWER_CLAIM) &&
                                           w->caller == FROM_IDLE)));
  if (!in_loop || (op->kind == OP_JOIN && op->skip))
    return 0;
  return !(vf_load(c, VF_STATE(op->slot)) & VF_DONE) && vf_load(c, A_REQUEST) < 0;
}

static void show(const int8_t *m) {
  printf(" | memory: request=%d transfer=", m[A_REQUEST]);
  for (int k = 0; k < VF_MAX_THIEVES; k++)
    printf("%s%d", k ? "," : "", m[A_TRANSFER0 + k]);
  printf(" T=%d\n", m[A_T]);
}

const vf_variant vf_private = {
    .name = "private",
    .relaxed = 1,
    .hides_private = 1,
    .drops = DROP_RESET | DROP_QUIESCE | DROP_CLAIM | DROP_TAKE_BACK,
    .put_pc = POLL_PEEK,
    .take_pc = TAKE_ENTRY,
    .steal_pc = STEAL_STORE_WAIT,
    .reset_pc = RESET_STORE_T,
    .idle_pc = IDLE_LOAD_T,
    .quiesce_pc = QUIESCE_XCHG,
    .steps = steps,
    .nsteps = NSTEPS,
    .init = init,
    .step = step,
    .waiting = waiting,
    .show = show,
};
