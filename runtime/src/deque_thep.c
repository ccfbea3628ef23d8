/*
 * deque_thep.c — THEP (paper 000 §5, Fig. 5): FF-THE plus worker echoes.
 * H packs a thieves' heartbeat counter s with the head h (tailhead.h).
 * Every take() that does not conflict echoes the s it read into P.  A thief
 * uncertain about the worker's position (T - delta <= h) waits, holding
 * the lock, until P echoes its own s+1 (the worker has seen its H) or the
 * queue drains (T < H); it never returns ABORT.
 */
#include "tailhead.h"

/* P = ⊥: no H is odd (its low half is a slot's address). */
#define THEP_NO_ECHO ((uint64_t)1)

int ws_thep_take_conflict(ws_dq *q, ws_slot *t);
int ws_thep_take_conflict_self(ws_slot *t);

/* The echo P := s (Fig. 5), made as P := H, which holds s: one store, no
 * shift; a thief reads s back from P.  ws-storecount counts it as a store
 * between two takes (ws/abi.def): THEP's x is at least 1 even where
 * nothing else is stored between two takes. */
WS_TAGGED_STORE void ws_store_echo(ws_dq *q, uint64_t sh) {
  atomic_store_explicit(&q->P, sh, ws_relaxed);
}

static inline __attribute__((always_inline)) int thep_take(ws_dq *q, int self,
                                                           ws_slot *t) {
  ws_store_tail(q, t); /* T := t, no fence */
  WS_TAKE_MARK();
  uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed); /* <s, h> := H */
  if (ws_likely(ws_th_at_or_above(t, sh))) {              /* t >= h */
    ws_store_echo(q, sh);                                 /* P := s */
    return 0;
  }
  return WS_SLOW(self, ws_thep_take_conflict_self(t), ws_thep_take_conflict(q, t));
}

void __ws_push_thep(ws_slot *t) { ws_th_push(&ws_my_dq, t); }
int __ws_take_thep(ws_slot *t) { return thep_take(&ws_my_dq, 1, t); }

#ifndef WS_FASTPATH_ONLY

int ws_thep_take_conflict_self(ws_slot *t) {
  return ws_thep_take_conflict(&ws_my_dq, t);
}

__attribute__((noinline, cold)) int ws_thep_take_conflict(ws_dq *q, ws_slot *t) {
  ws_th_lock(q);
  atomic_store_explicit(&q->P, THEP_NO_ECHO, ws_relaxed);
  uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);
  if (!ws_th_at_or_above(t, sh)) { /* h >= t + 1: lost task t */
    atomic_store_explicit(&q->T, t + 1, ws_relaxed);
    ws_th_unlock(q);
    return 1;
  }
  ws_th_unlock(q);
  return 0;
}

static ws_slot *thep_steal(ws_dq *q, ws_worker *thief) {
  if (ws_th_dist(atomic_load_explicit(&q->T, ws_relaxed),
                 atomic_load_explicit(&q->H, ws_relaxed)) <= 0)
    return WS_EMPTY; /* look before locking */
  /* Only a validated S may skip the echo: with the default S, a guess,
   * every uncertain steal waits for it (sound with no S at all). */
  int64_t delta = ws_rt.delta_validated;
  ws_th_lock(q);
  uint64_t sh = atomic_load_explicit(&q->H, ws_relaxed);
  uint32_t s = ws_th_tag(sh);
  ws_slot *h = ws_th_head(q, sh);
  WS_STORE_FENCED(&q->H, ws_th_pack(s + 1, h + 1)); /* H := <s+1, h+1>; fence */
  ws_slot *ret;
  if (ws_th_dist(atomic_load_explicit(&q->T, ws_seq_cst), sh) <= delta) {
    /* T - δ <= h: wait for the echo, unless the queue drains first. */
    thief->c.echo_waits++;
    unsigned spins = 0;
    for (uint64_t p; (p = atomic_load_explicit(&q->P, ws_acquire)) == THEP_NO_ECHO ||
                     ws_th_tag(p) != s + 1;) {
      if (ws_th_dist(atomic_load_explicit(&q->T, ws_acquire), sh) < 1)
        goto empty; /* h + 1 > T */
      if (++spins % 64 == 0)
        sched_yield();
      else
        ws_cpu_relax();
    }
    if (ws_th_dist(atomic_load_explicit(&q->T, ws_acquire), sh) >= 1) {
      ret = h; /* h + 1 <= t */
      thief->c.safe_echo++;
    } else {
    empty:
      atomic_store_explicit(&q->H, ws_th_pack(s + 1, h), ws_relaxed);
      ret = WS_EMPTY;
    }
  } else {
    ret = h;
    thief->c.safe_bound++;
  }
  ws_th_unlock(q);
  return ret;
}

static int thep_take_op(ws_dq *q, ws_slot *t) { return thep_take(q, 0, t); }

const ws_deque_ops ws_ops_thep = {
    WS_OPS_ROW(thep),
    .init = ws_th_init,
    .push = ws_th_push_op,
    .take = thep_take_op,
    .steal = thep_steal,
    .reset = ws_th_reset_locked,
};

#endif
