/*
 * client.c — the scenario and its specification.
 *
 * The worker runs its script: put(k) pushes task k, take() pops the most
 * recent outstanding task (the runtime's ABI: a sync takes back its own
 * spawn), and between two takes the worker makes x stores to other cache
 * lines: the runtime's anti-coalescing store w->takes (inside take()) and
 * x-1 stores of the client.  With x = 0 the model leaves out the
 * anti-coalescing store.  A take() that returns STOLEN joins the task: it
 * waits until the thief has marked it DONE (the runtime's
 * __ws_join_stolen), then Lace pops it (pop_stolen).  Each thief calls
 * steal() `steals` times and runs and marks DONE every task it gets.
 *
 * Checked along every execution:
 *  - no task is removed twice, and a take() returns exactly its own task;
 *  - no task is lost: at the end every task was removed once (but those the
 *    script leaves in the deque), and a task a take() reports STOLEN is
 *    done by a thief (else the join never ends);
 *  - steal() returns ABORT only where the relaxed specification of paper
 *    000 §4 allows it (FF-THE, FF-CL, and Lace's failed CAS);
 *  - steal() returns EMPTY only if at some moment during it no task was
 *    available: visible in memory (its put's T store drained — §3.3 allows
 *    missing a buffered put), not removed, and with no removal announced
 *    (the worker's T := t, a thief's H := h + 1 past it).  Lace's steal
 *    sees only the shared part of the deque, so there EMPTY is always
 *    allowed; the EMPTY of the runtime's unlocked peek is a hint
 *    (RET_EMPTY_HINT), held to this only with --strict-peek;
 *  - no thread waits forever (explore.c: a state where every unfinished
 *    thread is blocked or spins on a false condition and no buffer holds a
 *    store).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "verify.h"

int vf_saw_steal;

int vf_nthreads(const vf_config *cfg) { return 1 + cfg->thieves; }

static int nops(const vf_config *cfg, int tid) {
  return tid == 0 ? cfg->nworker : cfg->steals;
}

static vf_op op_of(const vf_config *cfg, const vf_thread *th, int tid) {
  if (tid == 0)
    return cfg->worker[th->op];
  return (vf_op){OP_STEAL, 0};
}

void vf_initial_state(const vf_config *cfg, vf_state *s) {
  memset(s, 0, sizeof *s);
  for (int i = 0; i < VF_MAX_THREADS; i++) {
    for (int j = 0; j < VF_MAX_S; j++)
      s->th[i].sb[j].addr = A_NONE;
    s->th[i].b.addr = A_NONE;
    s->th[i].phase = i < vf_nthreads(cfg) ? PH_IDLE : PH_FINISHED;
  }
  if (cfg->v->init)
    cfg->v->init(s);
}

int vf_violation(vf_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->why, VF_WHY, fmt, ap);
  va_end(ap);
  return STEP_VIOLATION;
}

/* No task is available to a thief: each was not yet put visibly, or was
 * removed, or a take() or steal() has announced its removal (the flag
 * principle: the worker's T := t, a thief's H := h + 1). */
static int deque_empty(const vf_config *cfg, const vf_state *s) {
  int claimed = cfg->v->claimed_below ? cfg->v->claimed_below(s) : 0;
  for (int k = 1; k <= cfg->tasks; k++) {
    unsigned bit = 1u << (k - 1);
    if ((s->visible & bit) && !(s->announced & bit) && !s->removed_by[k - 1] &&
        s->index[k - 1] >= claimed)
      return 0;
  }
  return 1;
}

void vf_after_step(const vf_config *cfg, vf_state *s) {
  int empty = deque_empty(cfg, s);
  for (int tid = 1; tid < vf_nthreads(cfg); tid++)
    if (s->th[tid].phase == PH_DEQUE)
      s->th[tid].saw_empty |= (uint8_t)empty;
}

static int next_op(vf_ctx *c) {
  vf_thread *th = c->th;
  th->op++;
  th->phase = th->op == nops(c->cfg, c->tid) ? PH_FINISHED : PH_IDLE;
  th->pc = 0;
  th->t = th->h = th->s = th->task = th->ret = th->new_s = 0;
  th->saw_empty = th->caller = 0;
  return STEP_OK;
}

int vf_goto(vf_ctx *c, int pc) {
  c->th->pc = (uint8_t)pc;
  return STEP_OK;
}

int vf_continue(vf_ctx *c, int pc) {
  c->th->pc = (uint8_t)pc;
  if (c->note)
    c->note->continued_pc = pc;
  return c->cfg->v->step(c);
}

int vf_put_return(vf_ctx *c) { return next_op(c); }

int vf_take_return(vf_ctx *c, int ret, int task) {
  int own = op_of(c->cfg, c->th, c->tid).arg;
  switch (ret) {
  case RET_TASK:
    if (task != own)
      return vf_violation(c, "take() returned task %d, but the most recent "
                             "outstanding put() is of task %d", task, own);
    if (c->s->removed_by[own - 1])
      return vf_violation(c, "task %d removed twice: take() returned it, "
                             "and a thief had stolen it", own);
    c->s->removed_by[own - 1] = 1;
    return next_op(c);
  case RET_STOLEN:
    c->th->phase = PH_JOIN;
    c->th->pc = 0;
    return STEP_OK;
  default:
    return vf_violation(c, "take() returned EMPTY while task %d was "
                           "outstanding", own);
  }
}

void vf_announce_take(vf_ctx *c) {
  int own = op_of(c->cfg, c->th, c->tid).arg;
  c->s->announced |= (uint8_t)(1u << (own - 1));
}

int vf_steal_commit(vf_ctx *c, int task) {
  if (task < 1 || task > c->cfg->tasks)
    return vf_violation(c, "steal() took a slot that holds no task");
  if (c->s->removed_by[task - 1])
    return vf_violation(c, "task %d removed twice: thief %d stole it, and %s "
                           "had removed it", task, c->tid,
                        c->s->removed_by[task - 1] == 1 ? "the worker"
                                                        : "a thief");
  c->s->removed_by[task - 1] = 2;
  c->th->task = (int8_t)task;
  vf_saw_steal = 1;
  return STEP_OK;
}

int vf_steal_return(vf_ctx *c, int ret) {
  const vf_variant *v = c->cfg->v;
  switch (ret) {
  case RET_TASK:
    c->th->phase = PH_RUN;
    return STEP_OK;
  case RET_ABORT:
    if (!v->relaxed)
      return vf_violation(c, "steal() returned ABORT, which the %s deque's "
                             "specification does not allow", v->name);
    return next_op(c);
  default: /* EMPTY; the hint of the unlocked peek only with --strict-peek */
    if (!v->hides_private && !c->th->saw_empty &&
        (ret == RET_EMPTY || c->cfg->strict_peek))
      return vf_violation(c, "steal() returned EMPTY, but at every moment "
                             "of it some task was available (its put visible, "
                             "not removed, no take or steal announced for it)");
    return next_op(c);
  }
}

int vf_pop_stolen_return(vf_ctx *c) { return next_op(c); }

int vf_store_fenced(vf_ctx *c, int addr, int val) {
  if (!vf_drained(c->th))
    return 0; /* xchg: the buffer drains first */
  vf_xchg(c, addr, val);
  return 1;
}

int vf_count_take(vf_ctx *c) {
  if (!vf_store(c, A_TAKES, c->th->takes + 1))
    return 0;
  c->th->takes++;
  return 1;
}

/* Runs one step of thread c->tid: the first or next step of its current
 * operation. */
int vf_thread_step(vf_ctx *c) {
  const vf_config *cfg = c->cfg;
  vf_thread *th = c->th;
  const vf_variant *v = cfg->v;
  switch (th->phase) {
  case PH_IDLE: {
    vf_op op = op_of(cfg, th, c->tid);
    switch (op.kind) {
    case OP_STORE: /* a store of the client between two takes */
      if (!vf_store(c, A_X0 + op.arg, 1))
        return STEP_BLOCKED;
      return next_op(c);
    case OP_PUT:
      th->phase = PH_DEQUE;
      th->pc = v->put_pc;
      break;
    case OP_TAKE:
      th->phase = PH_DEQUE;
      th->pc = v->take_pc;
      break;
    default:
      th->phase = PH_DEQUE;
      th->pc = v->steal_pc;
      th->saw_empty = (uint8_t)deque_empty(cfg, c->s); /* at the invocation */
      break;
    }
    return v->step(c);
  }
  case PH_DEQUE:
  case PH_POP:
    return v->step(c);
  case PH_JOIN: { /* __ws_join_stolen: wait for the thief's DONE */
    int own = op_of(cfg, th, c->tid).arg;
    if (!vf_load(c, A_DONE0 + own - 1))
      return STEP_BLOCKED;
    if (c->s->removed_by[own - 1] != 2)
      return vf_violation(c, "take() reported task %d STOLEN, but no thief "
                             "stole it", own);
    if (!v->pop_stolen_pc)
      return next_op(c);
    th->phase = PH_POP;
    th->pc = v->pop_stolen_pc;
    return STEP_OK;
  }
  case PH_RUN: /* the thief runs the task and marks it done */
    if (!vf_store(c, A_DONE0 + th->task - 1, 1))
      return STEP_BLOCKED;
    return next_op(c);
  default:
    return STEP_BLOCKED;
  }
}

int vf_all_finished(const vf_config *cfg, const vf_state *s) {
  for (int tid = 0; tid < vf_nthreads(cfg); tid++)
    if (s->th[tid].phase != PH_FINISHED)
      return 0;
  return 1;
}

int vf_final_check(const vf_config *cfg, const vf_state *s, char *why) {
  for (int k = 1; k <= cfg->tasks; k++)
    if (!s->removed_by[k - 1] && !(cfg->left & (1u << (k - 1)))) {
      snprintf(why, VF_WHY, "task %d was lost: every thread finished and "
                            "nobody removed it", k);
      return 0;
    }
  return 1;
}
