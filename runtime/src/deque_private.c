/*
 * deque_private.c — receiver-initiated private deques (Acar, Charguéraud,
 * Rainey, PPoPP'13; the variant Lace implements, paper 003 §4).  The deque
 * is the owner's alone: no atomics, no fences on push and take.  A thief
 * writes its id into the victim's `request` cell and waits on its own
 * `transfer` cell; the victim answers at its next spawn or sync point by
 * handing over its oldest task, or "no work".  Every worker that waits
 * (stealing, or blocked at a sync) keeps answering requests, so nobody
 * waits for a worker that is itself waiting.
 */
#include <sched.h>
#include <stdlib.h>

#include "worker.h"

void ws_private_answer(ws_worker *w);
__attribute__((noreturn)) void ws_private_overflow(ws_worker *w);

static inline void private_poll(ws_worker *w) {
  if (ws_unlikely(atomic_load_explicit(&w->dq.pr.request, ws_relaxed) >= 0))
    ws_private_answer(w);
}

void __ws_push_private(ws_worker *w, ws_task *task) {
  ws_privdeque *q = &w->dq.pr;
  if (ws_unlikely(q->T - q->H > q->mask))
    ws_private_overflow(w);
  q->tasks[q->T & q->mask] = task;
  q->T++;
  private_poll(w);
}

ws_task *__ws_take_private(ws_worker *w) {
  ws_privdeque *q = &w->dq.pr;
  if (ws_likely(q->T > q->H)) {
    ws_task *t = ws_own_slot(&q->tasks[--q->T & q->mask]);
    private_poll(w);
    ws_count_take(w);
    return t;
  }
  /* [H, T) is empty: the task at T-1 was handed to a thief. */
  q->T--;
  q->H = q->T;
  return WS_STOLEN(q->tasks[q->T & q->mask]);
}

#ifndef WS_FASTPATH_ONLY

/* Answer the pending request: the oldest task, or no work. */
__attribute__((noinline)) void ws_private_answer(ws_worker *w) {
  ws_privdeque *q = &w->dq.pr;
  int j = atomic_load_explicit(&q->request, ws_acquire);
  if (j < 0)
    return;
  ws_task *give = WS_EMPTY;
  if (q->T > q->H)
    give = q->tasks[q->H++ & q->mask];
  atomic_store_explicit(&ws_rt.workers[j]->dq.pr.transfer, give, ws_release);
  atomic_store_explicit(&q->request, WS_NO_REQUEST, ws_release);
}

__attribute__((noreturn)) void ws_private_overflow(ws_worker *w) {
  ws_fatal("deque overflow on worker %d: more than %lld outstanding spawns; "
           "raise WS_DEQUE_SIZE (at most %ld) or spawn less deeply",
           w->id, (long long)(w->dq.pr.mask + 1), (long)WS_MAX_DEQUE_SIZE);
}

static ws_task *private_steal(ws_worker *victim, ws_worker *thief) {
  ws_privdeque *me = &thief->dq.pr;
  atomic_store_explicit(&me->transfer, WS_TRANSFER_WAIT, ws_relaxed);
  int expect = WS_NO_REQUEST;
  if (!atomic_compare_exchange_strong_explicit(&victim->dq.pr.request, &expect,
                                               thief->id, ws_acq_rel,
                                               ws_relaxed))
    return expect == WS_REQUESTS_CLOSED ? WS_EMPTY : WS_ABORT;
  ws_task *r;
  unsigned spins = 0;
  while ((r = atomic_load_explicit(&me->transfer, ws_acquire)) ==
         WS_TRANSFER_WAIT) {
    ws_private_answer(thief); /* we have nothing to give, but must say so */
    if (++spins % 64 == 0)
      sched_yield();
    else
      ws_cpu_relax();
  }
  return r;
}

/* A stopping worker answers a last request and takes no more. */
static void private_quiesce(ws_worker *w) {
  ws_privdeque *q = &w->dq.pr;
  int j = atomic_exchange_explicit(&q->request, WS_REQUESTS_CLOSED, ws_acq_rel);
  if (j >= 0)
    atomic_store_explicit(&ws_rt.workers[j]->dq.pr.transfer, WS_EMPTY,
                          ws_release);
}

static int private_init(ws_worker *w, size_t capacity) {
  ws_privdeque *q = &w->dq.pr;
  q->tasks = calloc(capacity, sizeof *q->tasks);
  if (!q->tasks)
    return -1;
  q->mask = (int64_t)capacity - 1;
  q->T = q->H = 0;
  atomic_init(&q->request, WS_NO_REQUEST);
  atomic_init(&q->transfer, WS_EMPTY);
  return 0;
}

static void private_fini(ws_worker *w) {
  free(w->dq.pr.tasks);
  w->dq.pr.tasks = NULL;
}

static void private_put(ws_worker *w, ws_task *t) { __ws_push_private(w, t); }

const ws_deque_ops ws_ops_private = {
    .name = "private",
    .id = WS_VARIANT_PRIVATE,
    .fence_free = 0,
    .init = private_init,
    .fini = private_fini,
    .put = private_put,
    .take = __ws_take_private,
    .steal = private_steal,
    .idle = ws_private_answer,
    .quiesce = private_quiesce,
};

#endif
