/*
 * deque_split.c — Lace's non-blocking split deque (paper 003 §3, Fig. 4),
 * holding task pointers.  The owner works on the private part [split, head)
 * without atomic operations or fences; thieves CAS (tail, split) on the
 * shared part [tail, split).  Only shrink_shared, which moves the split
 * point back towards the thieves, needs a fence.  Stolen tasks stay in the
 * deque until their join pops them (pop_stolen).
 */
#include <sched.h>
#include <stdlib.h>

#include "worker.h"

void ws_split_grow_shared(ws_worker *w);
int ws_split_shrink_shared(ws_worker *w);
__attribute__((noreturn)) void ws_split_overflow(ws_worker *w);
void ws_split_push_allstolen(ws_worker *w);

static inline ws_task *split_slot(ws_splitdeque *q, uint32_t i) {
  return __atomic_load_n(&q->tasks[i], __ATOMIC_RELAXED);
}

void __ws_push_split(ws_worker *w, ws_task *task) {
  ws_splitdeque *q = &w->dq.sp;
  if (ws_unlikely(q->head == q->size))
    ws_split_overflow(w);
  __atomic_store_n(&q->tasks[q->head], task, __ATOMIC_RELAXED);
  q->head++;
  if (ws_unlikely(q->o_allstolen))
    ws_split_push_allstolen(w);
  else if (ws_unlikely(atomic_load_explicit(&q->splitreq, ws_relaxed)))
    ws_split_grow_shared(w);
}

ws_task *__ws_take_split(ws_worker *w) {
  ws_splitdeque *q = &w->dq.sp;
  if (ws_unlikely(q->head == 0))
    return WS_EMPTY;
  if (ws_unlikely(q->o_allstolen))
    return WS_STOLEN(split_slot(q, q->head - 1));
  if (ws_unlikely(q->o_split == q->head) && ws_split_shrink_shared(w))
    return WS_STOLEN(split_slot(q, q->head - 1));
  q->head--;
  if (ws_unlikely(atomic_load_explicit(&q->splitreq, ws_relaxed)))
    ws_split_grow_shared(w);
  ws_count_take(w);
  return ws_own_slot(&q->tasks[q->head]);
}

#ifndef WS_FASTPATH_ONLY

/* push() lines 14-19: the first task after everything was stolen becomes
 * the shared one, next to be stolen. */
__attribute__((noinline)) void ws_split_push_allstolen(ws_worker *w) {
  ws_splitdeque *q = &w->dq.sp;
  atomic_store_explicit(&q->u.ts,
                        ((uint64_t)q->head << 32) | (uint64_t)(q->head - 1),
                        ws_release); /* (tail, split) := (head-1, head) */
  atomic_store_explicit(&q->allstolen, 0, ws_release);
  if (atomic_load_explicit(&q->splitreq, ws_relaxed))
    atomic_store_explicit(&q->splitreq, 0, ws_relaxed);
  q->o_split = q->head;
  q->o_allstolen = 0;
}

/* Thieves asked for work: move the split point halfway towards head.  The
 * shared part only grows, so neither a fence nor an atomic is needed. */
__attribute__((noinline)) void ws_split_grow_shared(ws_worker *w) {
  ws_splitdeque *q = &w->dq.sp;
  uint32_t new_s = (q->o_split + q->head + 1) / 2;
  atomic_store_explicit(&q->u.half.split, new_s, ws_release);
  q->o_split = new_s;
  atomic_store_explicit(&q->splitreq, 0, ws_relaxed);
}

/* All remaining tasks are shared: take half back.  Returns 1 when thieves
 * had stolen everything (the task at head-1 is stolen). */
__attribute__((noinline)) int ws_split_shrink_shared(ws_worker *w) {
  ws_splitdeque *q = &w->dq.sp;
  uint64_t ts = atomic_load_explicit(&q->u.ts, ws_acquire);
  uint32_t t = (uint32_t)ts, s = (uint32_t)(ts >> 32);
  if (t != s) {
    uint32_t new_s = (t + s) / 2;
    /* split := new_s; MFENCE (Fig. 4 line 47), as one xchg */
    WS_STORE_FENCED(&q->u.half.split, new_s);
    q->o_split = new_s;
    t = atomic_load_explicit(&q->u.half.tail, ws_seq_cst); /* read again */
    if (t != s) {
      if (t > new_s) { /* thieves got past the new split point */
        new_s = (t + s) / 2;
        atomic_store_explicit(&q->u.half.split, new_s, ws_release);
        q->o_split = new_s;
      }
      return 0;
    }
  }
  atomic_store_explicit(&q->allstolen, 1, ws_release);
  q->o_allstolen = 1;
  return 1;
}

__attribute__((noreturn)) void ws_split_overflow(ws_worker *w) {
  ws_fatal("deque overflow on worker %d: more than %u outstanding spawns; "
           "raise WS_DEQUE_SIZE (at most %ld) or spawn less deeply",
           w->id, w->dq.sp.size, (long)WS_MAX_DEQUE_SIZE);
}

static ws_task *split_steal(ws_worker *victim, ws_worker *thief) {
  (void)thief;
  ws_splitdeque *q = &victim->dq.sp;
  if (atomic_load_explicit(&q->allstolen, ws_acquire))
    return WS_EMPTY;
  uint64_t ts = atomic_load_explicit(&q->u.ts, ws_acquire);
  uint32_t t = (uint32_t)ts, s = (uint32_t)(ts >> 32);
  if (t < s) {
    if (atomic_compare_exchange_strong_explicit(&q->u.ts, &ts, ts + 1,
                                                ws_seq_cst, ws_relaxed))
      return split_slot(q, t);
    return WS_ABORT; /* lost to another thief or to the owner's split move */
  }
  if (!atomic_load_explicit(&q->splitreq, ws_relaxed))
    atomic_store_explicit(&q->splitreq, 1, ws_relaxed);
  return WS_EMPTY;
}

/* After a stolen task was joined (Fig. 4 pop_stolen). */
static void split_pop_stolen(ws_worker *w) {
  ws_splitdeque *q = &w->dq.sp;
  q->head--;
  if (!q->o_allstolen) {
    atomic_store_explicit(&q->allstolen, 1, ws_release);
    q->o_allstolen = 1;
  }
}

static int split_init(ws_worker *w, size_t capacity) {
  ws_splitdeque *q = &w->dq.sp;
  if (capacity > (1UL << 31))
    return -1;
  q->tasks = calloc(capacity, sizeof *q->tasks);
  if (!q->tasks)
    return -1;
  q->size = (uint32_t)capacity;
  atomic_init(&q->u.ts, 0);
  atomic_init(&q->allstolen, 1);
  atomic_init(&q->splitreq, 0);
  q->head = 0;
  q->o_split = 0;
  q->o_allstolen = 1;
  return 0;
}

static void split_fini(ws_worker *w) {
  free(w->dq.sp.tasks);
  w->dq.sp.tasks = NULL;
}

static void split_put(ws_worker *w, ws_task *t) { __ws_push_split(w, t); }

const ws_deque_ops ws_ops_split = {
    .name = "split",
    .id = WS_VARIANT_SPLIT,
    .fence_free = 0,
    .init = split_init,
    .fini = split_fini,
    .put = split_put,
    .take = __ws_take_split,
    .steal = split_steal,
    .pop_stolen = split_pop_stolen,
};

#endif
