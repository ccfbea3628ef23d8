/* tailhead.c — allocation and overflow handling of the Fig. 2a deques. */
#include <stdlib.h>

#include "tailhead.h"

int ws_th_init(ws_worker *w, size_t capacity) {
  ws_thedeque *q = &w->dq.th;
  q->tasks = calloc(capacity, sizeof *q->tasks);
  if (!q->tasks)
    return -1;
  q->mask = (int64_t)capacity - 1;
  atomic_init(&q->T, 0);
  atomic_init(&q->H, 0);
  atomic_init(&q->lock, 0);
  atomic_init(&q->P, -1); /* THEP: P = ⊥ */
  q->h_seen = 0;
  return 0;
}

void ws_th_fini(ws_worker *w) {
  free(w->dq.th.tasks);
  w->dq.th.tasks = NULL;
}

void ws_th_make_room(ws_worker *w, int64_t t) {
  ws_thedeque *q = &w->dq.th;
  uint64_t hv = atomic_load_explicit(&q->H, ws_acquire);
  int64_t h = q->packed_head
                  ? t - (int64_t)(int32_t)((uint32_t)t - (uint32_t)hv)
                  : (int64_t)hv;
  /* A THE-style thief (the, ffthe, thep) raises H to h+1 under its lock
   * before it reads slot h, and may lower it again: slot H-1 may still be
   * read, so the owner keeps off it and the deque holds mask tasks. */
  q->h_seen = h - 1;
  if (t - q->h_seen > q->mask)
    ws_fatal("deque overflow on worker %d: more than %lld outstanding spawns; "
             "raise WS_DEQUE_SIZE (at most %ld) or spawn less deeply",
             w->id, (long long)q->mask, (long)WS_MAX_DEQUE_SIZE);
}
