/*
 * omp/taskq.c — general-path tasks on the workers: each worker's task
 * deque, how a task runs, how a thread finishes the tasks it queued, how
 * a waiting thread steals (taskq.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../idle.h"
#include "../views.h"
#include "blocks.h"
#include "echo.h"
#include "taskq.h"

/* The owner takes its task deque's slots back through the ops table,
 * whose takes make the anti-coalescing store (x = 1), whatever the
 * compiled modules' x is: this record keeps delta large enough for them
 * (as the generic ABI's and the pools' do).  Linked only into programs
 * that queue OpenMP tasks. */
__attribute__((used, section(WS_RECORD_SECTION), aligned(8)))
static const ws_module_record ws_omp_record = {
    WS_RECORD_MAGIC, WS_RECORD_VERSION, 1, 0, 0, WS_VARIANT_RUNTIME, 0,
    WS_ABI_VERSION, "libws OpenMP tasks (runtime/src/omp)"};

/* Slots kept free at the end: past them a task runs at once, as libomp
 * runs one when its deque is full. */
#define WS_OMP_Q_RESERVE 64

typedef struct ws_omp_q {
  ws_dq dq;
  /* Tasks queued and not finished: thieves skip a deque without any. */
  alignas(WS_CACHE_LINE) _Atomic long count;
  ws_slot *tail;  /* the owner's next free slot */
  ws_slot *limit; /* a task queued at or past it runs at once */
} ws_omp_q;

/* Every worker's task deque, by worker id (NULL until its first task). */
static ws_omp_q *_Atomic queues[WS_MAX_WORKERS];
static __thread ws_omp_q *my_q __attribute__((tls_model("initial-exec")));

/* Variants whose push and take do not store T (ws/variants.def): the
 * owner stores it, for a private deque's answers. */
static const unsigned char publishes_tail[] = {
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes, validated_only, summary) \
  [id] = publishes,
#include "ws/variants.def"
#undef WS_VARIANT
};

static inline void set_tail(ws_omp_q *q, ws_slot *t) {
  q->tail = t;
  if (!publishes_tail[ws_rt.ops->id])
    atomic_store_explicit(&q->dq.T, t, ws_relaxed);
}

static inline void count_add(ws_omp_q *q, long d) {
  atomic_store_explicit(&q->count, atomic_load_explicit(&q->count, ws_relaxed) + d,
                        ws_release);
}

static ws_omp_q *my_queue(ws_worker *w) {
  ws_omp_q *q = my_q;
  if (ws_likely(q != NULL))
    return q;
  size_t size = (sizeof *q + WS_CACHE_LINE - 1) & ~(size_t)(WS_CACHE_LINE - 1);
  q = aligned_alloc(WS_CACHE_LINE, size);
  if (!q)
    ws_fatal("out of memory allocating worker %d's OpenMP task deque", w->id);
  memset(q, 0, size);
  if (ws_rt.ops->init(&q->dq, w, ws_rt.deque_size))
    ws_fatal("cannot allocate an OpenMP task deque of %zu tasks for worker %d; "
             "lower WS_DEQUE_SIZE",
             ws_rt.deque_size, w->id);
  set_tail(q, q->dq.base);
  q->limit = q->dq.end - WS_OMP_Q_RESERVE;
  my_q = q;
  atomic_store_explicit(&queues[w->id], q, ws_release);
  return q;
}

/* A thief runs the task in the slot (scheduler.c, ws_run_stolen). */
static void omp_thunk(ws_slot *slot, ws_slot *tail) {
  (void)tail;
  ws_omp_run_task(*(ws_omp_task **)slot->payload);
}

int ws_omp_q_push(ws_omp_task *t) {
  ws_worker *w = ws_omp_worker_self();
  if (!w)
    return 1;
  ws_omp_q *q = my_queue(w);
  ws_slot *s = q->tail;
  if (s >= q->limit)
    return 1;
  s->run = omp_thunk;
  *(ws_omp_task **)s->payload = t;
  ws_rt.ops->push(&q->dq, s);
  set_tail(q, s + 1);
  count_add(q, 1);
  ws_omp_pending++;
  return 0;
}

static void finish(long level);

/* Runs a task stolen from a task or spawn deque.  What it queued on our
 * task deque (a spawned task's body that queued OpenMP tasks) finishes
 * before we go back to what we were waiting for. */
static void run_stolen(ws_worker *self, ws_slot *r) {
  self->c.steals++;
  ws_wake_one(); /* where one steal succeeds, there may be more work */
  void *cur = __ws_omp_current_task;
  long pending = ws_omp_pending;
  ws_omp_pending = 0;
  atomic_fetch_add_explicit(&self->running, 1, ws_seq_cst);
  ws_run_stolen(self, r);
  atomic_fetch_sub_explicit(&self->running, 1, ws_release);
  finish(0);
  __ws_omp_current_task = cur;
  ws_omp_pending = pending;
}

static int try_steal(ws_worker *self, ws_dq *dq) {
  ws_slot *r = ws_rt.ops->steal(dq, self);
  if (ws_is_task(r)) {
    run_stolen(self, r);
    return 1;
  }
  if (r == WS_ABORT)
    self->c.aborts++;
  return 0;
}

/* One attempt on worker v: its task deque, if it has tasks, then its
 * spawn deque. */
static int steal_from(ws_worker *self, ws_worker *v) {
  ws_omp_q *vq = atomic_load_explicit(&queues[v->id], ws_acquire);
  if (vq && atomic_load_explicit(&vq->count, ws_acquire) > 0 && try_steal(self, &vq->dq))
    return 1;
  return atomic_load_explicit(&v->ready, ws_acquire) && try_steal(self, v->dq);
}

void ws_omp_idle(ws_worker *self) {
  const ws_deque_ops *ops = ws_rt.ops;
  if (!ops->idle)
    return;
  ops->idle(self->dq);
  ws_omp_q *q = my_q;
  if (q)
    ops->idle(&q->dq);
}

int ws_omp_help(ws_worker *self) {
  int n = atomic_load_explicit(&ws_rt.nworkers, ws_acquire);
  if (n < 2)
    return 0;
  ws_omp_idle(self);
  if (ws_omp_echo(self))
    return 0;
  int v = (int)(ws_next_rand(self) % (uint64_t)(n - 1));
  ws_worker *victim = ws_rt.workers[v >= self->id ? v + 1 : v];
  return victim && steal_from(self, victim);
}

static void back_off(unsigned fails) {
  if (fails < 256)
    ws_cpu_relax();
  else
    sched_yield();
}

/* Our top slot s was stolen: wait for its thief, stealing from it
 * meanwhile (leapfrogging: what it queued is our task's), then the slot is
 * ours again (as __ws_join does for a spawn). */
static void join(ws_worker *w, ws_omp_q *q, ws_slot *s) {
  atomic_store_explicit(&q->dq.T, s + 1, ws_relaxed);
  w->c.stolen_syncs++;
  uintptr_t st;
  unsigned fails = 0;
  for (;;) {
    st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
    if (st & WS_TASK_DONE)
      break;
    ws_worker *thief = (ws_worker *)(st & ~(uintptr_t)(WS_TASK_DONE | WS_TASK_THREW));
    ws_omp_idle(w);
    if (thief && thief != w && !ws_omp_echo(w) && steal_from(w, thief)) {
      fails = 0;
      continue;
    }
    back_off(++fails);
  }
  if (st & ~(uintptr_t)(WS_TASK_DONE | WS_TASK_THREW))
    ws_fatal("an OpenMP task that another worker ran updated a reducer "
             "(ws/reducer.h): reducers are not supported in OpenMP tasks");
  s->state = 0;
  ws_rt.ops->reset(&q->dq, s);
  set_tail(q, s);
  count_add(q, -1);
}

/* Finishes the top slot of our task deque. */
static void finish_top(ws_worker *w, ws_omp_q *q) {
  ws_slot *s = q->tail - 1;
  if (ws_rt.ops->take(&q->dq, s)) {
    join(w, q, s);
    return;
  }
  set_tail(q, s);
  count_add(q, -1);
  ws_omp_run_task(*(ws_omp_task **)s->payload);
}

/* Finishes our queued tasks until `level` remain. */
static void finish(long level) {
  if (ws_omp_pending <= level)
    return;
  ws_worker *w = ws_tls_self;
  ws_omp_q *q = my_q;
  int e = errno;
  while (ws_omp_pending > level) {
    ws_omp_pending--;
    finish_top(w, q);
  }
  errno = e;
}

void ws_omp_resolve_to(long level) {
  finish(level);
  ws_omp_task *cur = (ws_omp_task *)__ws_omp_current_task;
  if (cur)
    for (ws_omp_tg *tg = cur->tg; tg && tg->owner == cur; tg = tg->prev)
      if (tg->pending_at > level)
        tg->pending_at = level;
}

void ws_omp_run_task(ws_omp_task *t) {
  ws_omp_gtask *g = (ws_omp_gtask *)t;
  kmp_task_t *kt = ws_omp_kmp_task(g);
  void *cur = __ws_omp_current_task;
  long pending = ws_omp_pending;
  t->itask = ws_omp_bind(t->itask);
  __ws_omp_current_task = t;
  ws_omp_pending = 0;
  int32_t gtid = ws_omp_gtid();
  do {
    t->flags &= ~WS_OMP_F_REQUEUED;
    kt->routine(gtid, kt);
  } while (t->flags & WS_OMP_F_REQUEUED);
  if (ws_omp_pending)
    ws_omp_resolve_to(0);
  if (t->flags & KMP_TASK_DESTRUCTORS)
    kt->data1.destructors(gtid, kt);
  __ws_omp_current_task = cur;
  ws_omp_pending = pending;
  ws_omp_block_free(g, g->size);
}
