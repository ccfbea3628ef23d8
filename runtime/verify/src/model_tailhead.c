/*
 * model_tailhead.c — what the Fig. 2a deques share (runtime/src/tailhead.h,
 * tailhead.c): put(), the thieves' lock, and the reset under the lock
 * after a join (THE, FF-THE, THEP).
 */
#include <stdio.h>

#include "model_tailhead.h"

int vf_th_step(vf_ctx *c) {
  vf_thread *w = c->th;
  int t = vf_slot(c);
  switch (w->pc) {
  case TH_PUT_STORE_T: /* the store publishes the task (ghost) */
    if (!vf_store_(c, A_T, t + 1, c->cfg->worker[w->op].arg))
      return STEP_BLOCKED;
    return vf_put_return(c);
  /* ws_th_reset_locked */
  case TH_RESET_LOCK:
    if (vf_dropped(c, DROP_RESET_LOCK))
      return vf_continue(c, TH_RESET_LOAD_H);
    if (!vf_th_lock(c))
      return STEP_BLOCKED;
    return vf_goto(c, TH_RESET_LOAD_H);
  case TH_RESET_LOAD_H:
    w->H = (int8_t)vf_load(c, A_H);
    return vf_goto(c, TH_RESET_STORE_T);
  case TH_RESET_STORE_T:
    if (!vf_store(c, A_T, t))
      return STEP_BLOCKED;
    return vf_goto(c, TH_RESET_STORE_H);
  case TH_RESET_STORE_H:
    if (!vf_store(c, A_H, VF_PACK(VF_TAG(w->H), t)))
      return STEP_BLOCKED;
    if (vf_dropped(c, DROP_RESET_LOCK))
      return vf_reset_return(c);
    return vf_goto(c, TH_RESET_UNLOCK);
  default: /* TH_RESET_UNLOCK */
    if (!vf_th_unlock(c))
      return STEP_BLOCKED;
    return vf_reset_return(c);
  }
}

/* ws_th_lock: test and test-and-set.  The test reads 0 and the xchg (which
 * waits for an empty buffer; --memory=weak: for none, it is acquire)
 * succeeds in one step; while the lock is held
 * the thread only spins, which the model leaves out (blocked). */
int vf_th_lock(vf_ctx *c) {
  if (c->cfg->weak) { /* an acquire exchange: earlier stores may stay buffered */
    if (c->s->mem[A_LOCK] != 0)
      return 0;
    vf_xchg(c, A_LOCK, 1);
    return !c->wait;
  }
  if (!vf_drained(c->th) || c->s->mem[A_LOCK] != 0)
    return 0;
  vf_xchg(c, A_LOCK, 1);
  return 1;
}

/* ws_th_unlock: a release store, i.e. a plain store into the buffer. */
int vf_th_unlock(vf_ctx *c) { return vf_store(c, A_LOCK, 0); }

int vf_th_claimed_below(const vf_state *s) { return VF_HEAD(s->mem[A_H]); }

void vf_th_show(const int8_t *m) {
  printf(" | memory: T=%d H=<%d,%d>", m[A_T], VF_TAG(m[A_H]), VF_HEAD(m[A_H]));
}
