/* deque_harness.c — see deque_harness.h. */
#include "deque_harness.h"

#include <pthread.h>
#include <time.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libws (startup.c); ws/ws.h would give the serial elision's here. */
int ws_num_workers(void);

static ws_runtime saved_rt;
static int saved;

void dh_fail(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout);
  fprintf(stderr, "FAIL %s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fflush(stderr);
  _exit(1);
}

const ws_deque_ops *dh_variant(const char *name) {
  const ws_deque_ops *ops = name ? ws_variant_by_name(name) : NULL;
  if (!ops) {
    fprintf(stderr, "expected a deque variant (%s), got \"%s\"\n",
            ws_variant_names(), name ? name : "");
    exit(2);
  }
  return ops;
}

ws_worker *dh_new_worker(const ws_deque_ops *ops, int id, size_t capacity) {
  size_t bytes = (sizeof(ws_worker) + WS_CACHE_LINE - 1) &
                 ~(size_t)(WS_CACHE_LINE - 1);
  ws_worker *w = aligned_alloc(WS_CACHE_LINE, bytes);
  ws_dq *q = aligned_alloc(WS_CACHE_LINE, sizeof *q);
  DH_CHECK(w && q, "out of memory");
  memset(w, 0, sizeof *w);
  memset(q, 0, sizeof *q);
  w->id = id;
  w->rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(id + 1) | 1;
  w->dq = q;
  DH_CHECK(ops->init(q, w, capacity) == 0, "%s: init(%zu) failed", ops->name,
           capacity);
  return w;
}

void dh_free_worker(ws_worker *w) {
  ws_slots_free(w->dq);
  free(w->dq);
  free(w);
}

void dh_install(const ws_deque_ops *ops, ws_worker **workers, int n,
                int64_t delta) {
  if (!saved) {
    /* Asking the runtime (configure.c) also links its start-up, which read
     * WS_NUM_WORKERS. */
    int n = ws_num_workers();
    DH_CHECK(n == 1,
             "run with WS_NUM_WORKERS=1: runtime threads must not touch "
             "the test's workers (found %d workers)",
             n);
    saved_rt = ws_rt;
    saved = 1;
  }
  ws_rt.ops = ops;
  ws_rt.workers = workers;
  ws_rt.nworkers = n;
  ws_rt.delta = delta; /* the test's delta stands for a validated S */
  ws_rt.delta_validated = delta;
}

void dh_restore(void) {
  if (saved)
    ws_rt = saved_rt;
}

int64_t dh_runtime_delta(void) { return saved ? saved_rt.delta : ws_rt.delta; }

void dh_push(const ws_deque_ops *ops, ws_worker *w, ws_slot *t) {
  ops->push(w->dq, t);
  atomic_store_explicit(&w->dq->T, t + 1, ws_relaxed);
}

int dh_take(const ws_deque_ops *ops, ws_worker *w, ws_slot *t) {
  int stolen = ops->take(w->dq, t);
  if (!stolen)
    atomic_store_explicit(&w->dq->T, t, ws_relaxed);
  return stolen;
}

void dh_mark_running(ws_slot *t, ws_worker *thief) {
  __atomic_store_n(&t->state, (uintptr_t)thief, __ATOMIC_RELEASE);
}

void dh_mark_done(ws_slot *t, ws_worker *thief) {
  __atomic_store_n(&t->state, (uintptr_t)thief | WS_TASK_DONE, __ATOMIC_RELEASE);
}

void dh_join(const ws_deque_ops *ops, ws_worker *w, ws_slot *t,
             void (*help)(ws_worker *w, ws_slot *t)) {
  atomic_store_explicit(&w->dq->T, t + 1, ws_relaxed);
  while (!(__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) & WS_TASK_DONE))
    help(w, t);
  t->state = 0;
  ops->reset(w->dq, t);
}

typedef struct steal_call {
  const ws_deque_ops *ops;
  ws_worker *victim, *thief;
  ws_slot *result;
  _Atomic int done;
} steal_call;

static void *steal_thread(void *arg) {
  steal_call *c = arg;
  c->result = c->ops->steal(c->victim->dq, c->thief);
  atomic_store_explicit(&c->done, 1, memory_order_release);
  return NULL;
}

ws_slot *dh_steal(const ws_deque_ops *ops, ws_worker *victim, ws_worker *thief) {
  if (!ops->idle)
    return ops->steal(victim->dq, thief);
  steal_call c = {ops, victim, thief, NULL, 0};
  pthread_t t;
  DH_CHECK(pthread_create(&t, NULL, steal_thread, &c) == 0,
           "cannot start a thief thread");
  /* The owner answers at each poll.  Between polls it sleeps rather than
   * yields: on a loaded machine a yield hands the CPU to every busy
   * process in turn before the thief, while a sleeper is woken, and the
   * thief runs, at once (a steal took 8 ms beside three busy loops). */
  while (!atomic_load_explicit(&c.done, memory_order_acquire)) {
    ops->idle(victim->dq);
    nanosleep(&(struct timespec){0, 20000}, NULL);
  }
  pthread_join(t, NULL);
  return c.result;
}
