/* tailhead.c — set-up and reset of the Fig. 2a deques. */
#include "tailhead.h"

int ws_th_init(ws_dq *q, ws_worker *w, size_t capacity) {
  if (ws_slots_alloc(q, w, capacity))
    return -1;
  atomic_init(&q->H, ws_th_pack(0, q->base));
  atomic_init(&q->lock, 0);
  atomic_init(&q->P, 1); /* THEP: P = ⊥ */
  return 0;
}

void ws_th_reset_locked(ws_dq *q, ws_slot *t) {
  ws_th_lock(q);
  uint64_t H = atomic_load_explicit(&q->H, ws_relaxed);
  atomic_store_explicit(&q->T, t, ws_relaxed);
  atomic_store_explicit(&q->H, ws_th_pack(ws_th_tag(H), t), ws_relaxed);
  ws_th_unlock(q);
}

void ws_th_push_op(ws_dq *q, ws_slot *t) { ws_th_push(q, t); }
