/*
 * model_tailhead.c — what the Fig. 2a deques share (runtime/src/tailhead.h):
 * put() and the thieves' lock.
 */
#include "verify.h"

int vf_th_put_step(vf_ctx *c) {
  vf_thread *w = c->th;
  int task = c->cfg->worker[w->op].arg;
  switch (w->pc) {
  case TH_PUT_LOAD_T:
    w->t = (int8_t)vf_load(c, A_T);
    /* `t - q->h_seen > q->mask` never holds: the model puts at most W tasks */
    return vf_goto(c, TH_PUT_STORE_TASK);
  case TH_PUT_STORE_TASK:
    if (!vf_store(c, A_SLOT0 + (w->t & (VF_SLOTS - 1)), task))
      return STEP_BLOCKED;
    return vf_goto(c, TH_PUT_STORE_T);
  default: /* TH_PUT_STORE_T; the store publishes the task (ghost) */
    if (!vf_store_(c, A_T, w->t + 1, task))
      return STEP_BLOCKED;
    c->s->index[task - 1] = (uint8_t)w->t;
    return vf_put_return(c);
  }
}

/* ws_th_lock: test and test-and-set.  The test reads 0 and the xchg (which
 * waits for an empty buffer) succeeds in one step; while the lock is held
 * the thread only spins, which the model leaves out (blocked). */
int vf_th_lock(vf_ctx *c) {
  if (!vf_drained(c->th) || c->s->mem[A_LOCK] != 0)
    return 0;
  vf_xchg(c, A_LOCK, 1);
  return 1;
}

/* ws_th_unlock: a release store, i.e. a plain store into the buffer. */
int vf_th_unlock(vf_ctx *c) { return vf_store(c, A_LOCK, 0); }

int vf_th_claimed_below(const vf_state *s) { return s->mem[A_H]; }
