/*
 * client.c — the scenario and its specification.
 *
 * The worker runs its script (config.c compiles it): compiled code writes
 * task k into its slot and calls push(); take(t) takes back the slot of the
 * most recent outstanding push (the runtime's ABI: a sync takes back its
 * own spawn); between two takes the worker makes x stores to other cache
 * lines, those of take() itself (variants.def take_stores) and the rest the
 * client's.  A take() that finds its task stolen joins it as __ws_join
 * does: T := t + 1, wait until the thief has marked the slot DONE (and,
 * where the script says so, run other work meanwhile: leapfrogging), clear
 * the slot's state, and ops->reset(q, t).  Each thief calls steal()
 * `steals` times, and runs in its slot and marks DONE every task it gets.
 *
 * Checked along every execution:
 *  - no task is removed twice: a take() that keeps its task finds no thief
 *    had it, and a steal never returns a slot another thief or the worker
 *    removed, or one that holds no task;
 *  - no task is lost: at the end every task pushed was removed once (but
 *    those the script leaves in the deque), and a task a take() reports stolen was
 *    stolen by a thief (else the join never ends);
 *  - steal() returns ABORT only where the relaxed specification of paper
 *    000 §4 allows it (FF-THE, FF-CL, Lace's failed CAS, a private deque's
 *    busy request cell);
 *  - steal() returns EMPTY only if at some moment during it no task was
 *    available: visible in memory (its push's T store drained — §3.3
 *    allows missing a buffered push), not removed, and with no removal
 *    announced (the worker's T := t, a thief's H := h + 1 past it).  Split
 *    and private thieves see only what the owner shares, so there EMPTY is
 *    always allowed; the EMPTY of the runtime's unlocked peek is a hint
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

#define SCHED "scheduler.c"
const vf_step_info vf_client_steps[C_NSTEPS] = {
    [C_PUT_SLOT] = {"(compiled code) write the task into slot t (ws/abi.h)"},
    [C_STORE] = {"(client) one of the stores between two takes"},
    [C_JOIN_T] = {"(runtime) __ws_join: T := t + 1, spawn above the slot", SCHED,
                  "atomic_store_explicit(&w->dq->T, t + 1, ws_relaxed);"},
    [C_JOIN_WAIT] = {"(runtime) __ws_join: wait until the thief marks t DONE", SCHED,
                     "st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);",
                     "if (st & WS_TASK_DONE)"},
    [C_JOIN_CLEAR] = {"(runtime) __ws_join: the slot is ours again", SCHED,
                      "t->state = 0;"},
    [C_RUN_SLOT] = {"(runtime) ws_run_stolen: run the task in its slot", SCHED,
                    "t->run(t, tail);"},
    [C_RUN_DONE] = {"(runtime) ws_run_stolen: mark it DONE", SCHED,
                    "__atomic_store_n(&t->state, (uintptr_t)left | threw | WS_TASK_DONE, __ATOMIC_RELEASE);"},
};

int vf_nthreads(const vf_config *cfg) { return 1 + cfg->thieves; }

static int nops(const vf_config *cfg, int tid) {
  return tid == 0 ? cfg->nworker : cfg->steals;
}

static vf_op op_of(const vf_config *cfg, const vf_thread *th, int tid) {
  if (tid == 0)
    return cfg->worker[th->op];
  return (vf_op){OP_STEAL, 0, 0, 0};
}

int vf_slot(const vf_ctx *c) { return c->cfg->worker[c->th->op].slot; }

int vf_dropped(const vf_ctx *c, unsigned what) { return (c->cfg->drop & what) != 0; }

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

/* No task is available to a thief: each was not yet pushed visibly, or was
 * removed, or a take() or steal() has announced its removal (the flag
 * principle: the worker's T := t, a thief's H := h + 1). */
static int deque_empty(const vf_config *cfg, const vf_state *s) {
  int claimed = cfg->v->claimed_below ? cfg->v->claimed_below(s) : 0;
  for (int k = 1; k <= cfg->tasks; k++) {
    unsigned bit = 1u << (k - 1);
    if ((s->visible & bit) && !(s->announced & bit) && !s->removed_by[k - 1] &&
        cfg->slot_of[k - 1] >= claimed)
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

/* On to operation `op` of the thread's program; the owner's private fields
 * stay, the locals go. */
static int goto_op(vf_ctx *c, int op) {
  vf_thread *th = c->th;
  th->op = (uint8_t)op;
  th->phase = op == nops(c->cfg, c->tid) ? PH_FINISHED : PH_IDLE;
  th->pc = 0;
  th->t = th->h = th->s = th->H = th->task = th->ret = th->new_s = th->j = 0;
  th->saw_empty = th->caller = 0;
  return STEP_OK;
}

static int next_op(vf_ctx *c) { return goto_op(c, c->th->op + 1); }

static int client_goto(vf_ctx *c, int pc) {
  c->th->phase = PH_CLIENT;
  c->th->pc = (uint8_t)pc;
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

/* take() returned 0 (the worker keeps the task; compiled code runs it from
 * its slot) or 1 (a thief got it first: __ws_join follows). */
int vf_take_return(vf_ctx *c, int stolen) {
  vf_op op = op_of(c->cfg, c->th, c->tid);
  if (stolen)
    return next_op(c); /* OP_JOIN */
  if (c->s->removed_by[op.arg - 1])
    return vf_violation(c, "task %d removed twice: take() kept it, and a "
                           "thief had stolen it", op.arg);
  c->s->removed_by[op.arg - 1] = 1;
  return goto_op(c, op.skip);
}

void vf_announce_take(vf_ctx *c) {
  int own = op_of(c->cfg, c->th, c->tid).arg;
  c->s->announced |= (uint8_t)(1u << (own - 1));
}

/* A task is removed when the thief that claimed its slot runs it: it reads
 * the slot (C_RUN_SLOT), which is when the model learns which task that is. */
static int steal_commit(vf_ctx *c, int task) {
  if (task < 1 || task > c->cfg->tasks)
    return vf_violation(c, "steal() took a slot that holds no task");
  if (c->s->removed_by[task - 1])
    return vf_violation(c, "task %d removed twice: thief %d stole it, and %s "
                           "had removed it", task, c->tid,
                        c->s->removed_by[task - 1] == 1 ? "the worker"
                                                        : "a thief");
  c->s->removed_by[task - 1] = 2;
  vf_saw_steal = 1;
  return STEP_OK;
}

int vf_steal_return(vf_ctx *c, int ret, int slot) {
  const vf_variant *v = c->cfg->v;
  switch (ret) {
  case RET_TASK:
    c->th->task = (int8_t)slot;
    return client_goto(c, C_RUN_SLOT);
  case RET_ABORT:
    if (!v->relaxed)
      return vf_violation(c, "steal() returned ABORT, which the %s deque's "
                             "specification does not allow", v->name);
    return next_op(c);
  default: /* EMPTY; the hint of the unlocked peek only with --strict-peek */
    if (!v->hides_private && !c->th->saw_empty &&
        (ret == RET_EMPTY || c->cfg->strict_peek))
      return vf_violation(c, "steal() returned EMPTY, but at every moment "
                             "of it some task was available (its push visible, "
                             "not removed, no take or steal announced for it)");
    return next_op(c);
  }
}

/* After ops->reset: the join is over.  A join that found the task done at
 * once skips the work the script would have run meanwhile. */
int vf_reset_return(vf_ctx *c) {
  vf_op op = op_of(c->cfg, c->th, c->tid);
  return op.kind == OP_JOIN && op.skip ? goto_op(c, op.skip) : next_op(c);
}

/* After ops->idle in the join's loop: on to the work of the block, or
 * look at the task again. */
int vf_idle_return(vf_ctx *c) {
  vf_op op = op_of(c->cfg, c->th, c->tid);
  c->th->h = c->th->j = c->th->task = 0; /* its locals are gone */
  c->th->caller = 0;
  if (op.kind == OP_JOIN && op.skip)
    return next_op(c);
  return client_goto(c, C_JOIN_WAIT);
}

int vf_quiesce_return(vf_ctx *c) { return next_op(c); }

int vf_store_fenced(vf_ctx *c, int addr, int val) {
  if (c->cfg->weak) { /* the seq_cst exchange: ldaxr, stlxr into the buffer */
    vf_xchg(c, addr, val);
    return !c->wait;
  }
  if (!vf_drained(c->th))
    return 0; /* xchg: the buffer drains first */
  vf_xchg(c, addr, val);
  return 1;
}

/* The steps of the scenario itself. */
static int client_step(vf_ctx *c) {
  const vf_config *cfg = c->cfg;
  const vf_variant *v = cfg->v;
  vf_thread *th = c->th;
  vf_op op = op_of(cfg, th, c->tid);
  switch (th->pc) {
  case C_PUT_SLOT:
    if (!vf_store(c, VF_SLOT(op.slot), op.arg))
      return STEP_BLOCKED;
    c->s->pushed |= (uint8_t)(1u << (op.arg - 1));
    th->phase = PH_DEQUE;
    return vf_goto(c, v->put_pc);
  case C_STORE:
    if (!vf_store(c, A_X0 + op.arg, 1))
      return STEP_BLOCKED;
    return next_op(c);
  case C_JOIN_T:
    if (!vf_store(c, A_T, op.slot + 1))
      return STEP_BLOCKED;
    return client_goto(c, C_JOIN_WAIT);
  case C_JOIN_WAIT:
    if (vf_load(c, VF_STATE(op.slot)) & VF_DONE) {
      if (c->s->removed_by[op.arg - 1] != 2)
        return vf_violation(c, "take() reported task %d stolen, but no thief "
                               "stole it", op.arg);
      return client_goto(c, C_JOIN_CLEAR);
    }
    /* Not done: answer requests (private), run the block's work, or wait;
     * the wait re-reads only the state, so it blocks until DONE shows. */
    if (v->idle_pc) {
      th->phase = PH_DEQUE;
      return vf_goto(c, v->idle_pc);
    }
    if (op.kind == OP_JOIN && op.skip)
      return next_op(c);
    return STEP_BLOCKED;
  case C_JOIN_CLEAR:
    if (!vf_store(c, VF_STATE(op.slot), 0))
      return STEP_BLOCKED;
    if (vf_dropped(c, DROP_RESET))
      return vf_reset_return(c);
    th->phase = PH_DEQUE;
    return vf_goto(c, v->reset_pc);
  case C_RUN_SLOT:
    if (steal_commit(c, vf_load(c, VF_SLOT(th->task))) != STEP_OK)
      return STEP_VIOLATION;
    return client_goto(c, C_RUN_DONE);
  default: /* C_RUN_DONE */
    if (!vf_store(c, VF_STATE(th->task), VF_DONE))
      return STEP_BLOCKED;
    return next_op(c);
  }
}

static int thread_step(vf_ctx *c);

/* Runs one step of thread c->tid: the first or next step of its current
 * operation.  --memory=weak: an access that must wait blocks the step (the
 * caller drops the state it changed). */
int vf_thread_step(vf_ctx *c) {
  c->wait = 0;
  int rc = thread_step(c);
  return c->wait && rc == STEP_OK ? STEP_BLOCKED : rc;
}

static int thread_step(vf_ctx *c) {
  const vf_config *cfg = c->cfg;
  vf_thread *th = c->th;
  const vf_variant *v = cfg->v;
  switch (th->phase) {
  case PH_IDLE: {
    vf_op op = op_of(cfg, th, c->tid);
    switch (op.kind) {
    case OP_PUT:
      client_goto(c, C_PUT_SLOT);
      return client_step(c);
    case OP_STORE:
      client_goto(c, C_STORE);
      return client_step(c);
    case OP_JOIN:
      client_goto(c, C_JOIN_T);
      return client_step(c);
    case OP_JOIN_END:
      client_goto(c, C_JOIN_WAIT);
      return client_step(c);
    case OP_TAKE:
      th->phase = PH_DEQUE;
      th->pc = v->take_pc;
      break;
    case OP_QUIESCE:
      th->phase = PH_DEQUE;
      th->pc = v->quiesce_pc;
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
    return v->step(c);
  case PH_CLIENT:
    return client_step(c);
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
    if ((s->pushed & (1u << (k - 1))) && !s->removed_by[k - 1] &&
        !(cfg->left & (1u << (k - 1)))) {
      snprintf(why, VF_WHY, "task %d was lost: every thread finished and "
                            "nobody removed it", k);
      return 0;
    }
  return 1;
}
