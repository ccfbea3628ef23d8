/*
 * deque_private.c — receiver-initiated private deques (Acar, Charguéraud,
 * Rainey, PPoPP'13; the variant Lace implements, paper 003 §4).  The deque
 * is the owner's alone: no atomics, no fences on push and take.  A thief
 * writes its id into the victim's `request` cell and waits on its own
 * `transfer` cell; the victim answers at its next spawn or sync point by
 * handing over its oldest task, or "no work".  Every worker that waits
 * (stealing, or blocked at a sync) keeps answering requests, so nobody
 * waits for a worker that is itself waiting.
 *
 * The tasks not handed over are [o_head, T); a handed-over task stays in
 * its slot, run there by the thief, until the owner joins it.
 *
 * A worker that is not in the runtime answers nobody: the main thread
 * blocked in pthread_join while the calls of other threads run on the
 * workers (submit.c).  A thief takes its request back after a while, and
 * at once when such calls are queued (it goes to run them), unless the
 * owner has claimed the request (WS_REQUEST_ANSWERING): then the answer is
 * on its way.  Waiting for queued calls alone is not enough: a thief
 * leapfrogging at the join of a call already taken from the queue waits
 * for its answer with nothing queued.  The while is a time, not a count of
 * spins: an owner that the OS has descheduled answers late but answers,
 * and on a loaded machine that takes longer than any spin count.
 */
#include <sched.h>
#include <time.h>

#include "worker.h"

/* How long a thief waits for an answer before it takes its request back
 * (ns): several scheduler time slices. */
#define WS_PRIVATE_PATIENCE_NS 50000000

void ws_private_answer(ws_dq *q, ws_slot *head);
void ws_private_answer_self(ws_slot *head);

/* Answer a thief's request, with the tasks below head to give. */
static inline __attribute__((always_inline)) void private_poll(ws_dq *q, int self,
                                                               ws_slot *head) {
  if (ws_unlikely((int32_t)ws_peek32(&q->request) >= 0))
    WS_SLOW(self, ws_private_answer_self(head), ws_private_answer(q, head));
}

/* The owner's tail stays in compiled code (ws/variants.def publishes_tail). */
static inline __attribute__((always_inline)) void private_push(ws_dq *q, int self,
                                                               ws_slot *t) {
  private_poll(q, self, t + 1);
}

static inline __attribute__((always_inline)) int private_take(ws_dq *q, int self,
                                                              ws_slot *t) {
  if (ws_unlikely(t < q->o_head))
    return 1; /* handed to a thief */
  private_poll(q, self, t);
  return 0;
}

void __ws_push_private(ws_slot *t) { private_push(&ws_my_dq, 1, t); }
int __ws_take_private(ws_slot *t) { return private_take(&ws_my_dq, 1, t); }

#ifndef WS_FASTPATH_ONLY

void ws_private_answer_self(ws_slot *head) { ws_private_answer(&ws_my_dq, head); }

/* Answer the pending request: the oldest task below head, or no work.
 * Claimed first, so that the thief cannot take it back meanwhile. */
__attribute__((noinline)) void ws_private_answer(ws_dq *q, ws_slot *head) {
  int j = atomic_load_explicit(&q->request, ws_acquire);
  if (j < 0 || !atomic_compare_exchange_strong_explicit(
                   &q->request, &j, WS_REQUEST_ANSWERING, ws_acq_rel,
                   ws_relaxed))
    return;
  ws_slot *give = WS_EMPTY;
  if (q->o_head < head)
    give = q->o_head++;
  atomic_store_explicit(&ws_rt.workers[j]->dq->transfer, give, ws_release);
  atomic_store_explicit(&q->request, WS_NO_REQUEST, ws_release);
}

/* While the owner steals or waits: its tail is in T (__ws_join). */
static void ws_private_answer_idle(ws_dq *q) {
  ws_private_answer(q, atomic_load_explicit(&q->T, ws_relaxed));
}

static ws_slot *private_steal(ws_dq *victim, ws_worker *thief) {
  ws_dq *me = thief->dq;
  atomic_store_explicit(&me->transfer, WS_TRANSFER_WAIT, ws_relaxed);
  int expect = WS_NO_REQUEST;
  if (!atomic_compare_exchange_strong_explicit(&victim->request, &expect,
                                               thief->id, ws_acq_rel,
                                               ws_relaxed))
    return expect == WS_REQUESTS_CLOSED ? WS_EMPTY : WS_ABORT;
  ws_slot *r;
  unsigned spins = 0;
  uint64_t give_up = 0; /* set at the first yield: most answers come sooner */
  while ((r = atomic_load_explicit(&me->transfer, ws_acquire)) ==
         WS_TRANSFER_WAIT) {
    ws_private_answer_idle(me); /* we have nothing to give, but must say so */
    if (++spins % 64 == 0 && !give_up)
      give_up = ws_now_ns() + WS_PRIVATE_PATIENCE_NS;
    if (spins % 64 == 0 && (atomic_load_explicit(&ws_rt.submitted, ws_relaxed) ||
                            ws_now_ns() >= give_up)) {
      int mine = thief->id;
      if (atomic_compare_exchange_strong_explicit(&victim->request, &mine,
                                                  WS_NO_REQUEST, ws_acq_rel,
                                                  ws_relaxed))
        return WS_ABORT; /* taken back before the owner saw it */
    }
    if (spins % 64 == 0)
      sched_yield();
    else
      ws_cpu_relax();
  }
  return r;
}

/* After the join of handed-over slot t: every older task was handed over
 * too, and the owner took back all it pushed above. */
static void private_reset(ws_dq *q, ws_slot *t) {
  q->o_head = t;
  atomic_store_explicit(&q->T, t, ws_relaxed);
}

/* A stopping worker answers a last request and takes no more. */
static void private_quiesce(ws_dq *q) {
  int j = atomic_exchange_explicit(&q->request, WS_REQUESTS_CLOSED, ws_acq_rel);
  if (j >= 0)
    atomic_store_explicit(&ws_rt.workers[j]->dq->transfer, WS_EMPTY,
                          ws_release);
}

/* A parked worker is active again: it takes requests. */
static void private_reopen(ws_dq *q) {
  atomic_store_explicit(&q->request, WS_NO_REQUEST, ws_release);
}

static int private_init(ws_dq *q, ws_worker *w, size_t capacity) {
  if (ws_slots_alloc(q, w, capacity))
    return -1;
  q->o_head = q->base;
  atomic_init(&q->request, WS_NO_REQUEST);
  atomic_init(&q->transfer, WS_EMPTY);
  return 0;
}

static void private_push_op(ws_dq *q, ws_slot *t) { private_push(q, 0, t); }
static int private_take_op(ws_dq *q, ws_slot *t) { return private_take(q, 0, t); }

const ws_deque_ops ws_ops_private = {
    WS_OPS_ROW(private),
    .init = private_init,
    .push = private_push_op,
    .take = private_take_op,
    .steal = private_steal,
    .reset = private_reset,
    .idle = ws_private_answer_idle,
    .quiesce = private_quiesce,
    .reopen = private_reopen,
};

#endif
