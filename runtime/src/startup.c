/*
 * startup.c — the workers' start, at first use (the first call of a
 * spawning function, or ws_num_workers), so that the program may set their
 * number first (ws_set_num_workers); and how a thread comes to a deque:
 * the main thread is worker 0, workers 1..N-1 are threads of their own, a
 * thread of the program's gets a deque of its own when there is one
 * worker, else submits its calls (submit.c).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "idle.h"
#include "signals.h"
#include "stacks.h"
#include "worker.h"

/* Sets up the calling thread's deque for worker w.  The control block is
 * this thread's TLS (deque.h), so only the thread itself can do it; thieves
 * look at w once `ready` says so. */
static void bind_worker(ws_worker *w) {
  if (ws_rt.ops->init(&ws_my_dq, w, ws_rt.deque_size))
    ws_fatal("cannot allocate a deque of %zu tasks for worker %d; lower "
             "WS_DEQUE_SIZE",
             ws_rt.deque_size, w->id);
  w->dq = &ws_my_dq;
  w->thread = pthread_self();
  ws_tls_self = w;
  ws_stack_bind(w->id);
  atomic_store_explicit(&w->ready, 1, ws_release);
}

static void *worker_main(void *arg) {
  ws_worker *w = arg;
  bind_worker(w);
  ws_worker_loop(w);
  if (ws_rt.ops->quiesce)
    ws_rt.ops->quiesce(w->dq);
  w->spawns = ws_tls_spawns;
  /* Our deque is this thread's TLS: stay until every worker has left its
   * loop, so no thief still looks at it when the thread goes. */
  atomic_fetch_add_explicit(&ws_rt.exited, 1, ws_release);
  while (atomic_load_explicit(&ws_rt.exited, ws_acquire) < ws_rt.nworkers - 1)
    sched_yield();
  return NULL;
}

static ws_worker *new_worker(int id) {
  ws_worker *w = aligned_alloc(WS_CACHE_LINE,
                               (sizeof(ws_worker) + WS_CACHE_LINE - 1) &
                                   ~(size_t)(WS_CACHE_LINE - 1));
  if (!w)
    ws_fatal("out of memory allocating worker %d", id);
  memset(w, 0, sizeof *w);
  w->id = id;
  w->rng = 0x9e3779b97f4a7c15ULL * (uint64_t)(id + 1) | 1;
  return w;
}

#ifdef WS_RACE
#define WS_RACE_WORKERS(n) 1
#else
#define WS_RACE_WORKERS(n) (n)
#endif

int ws_set_num_workers(int n) {
  if (n < 1 || n > WS_MAX_WORKERS)
    return EINVAL;
  pthread_mutex_lock(&ws_rt_lock);
  int started = atomic_load_explicit(&ws_rt.started, ws_relaxed);
  if (!started)
    ws_rt.nworkers = WS_RACE_WORKERS(n);
  pthread_mutex_unlock(&ws_rt_lock);
  return started ? EBUSY : 0;
}

/* The workers 1..N-1; worker 0, the main thread, binds itself when it
 * first runs spawning code (ws_bind_caller).  Thieves skip a worker that
 * is not ready. */
void ws_start(void) {
  if (atomic_load_explicit(&ws_rt.started, ws_acquire))
    return;
  if (!ws_runtime_configured()->ops)
    ws_fatal("ws_spawn/ws_sync before the runtime read its environment (a "
             "constructor that runs before libws's?)");
  pthread_mutex_lock(&ws_rt_lock);
  if (!atomic_load_explicit(&ws_rt.started, ws_relaxed)) {
    int n = ws_rt.nworkers;
    ws_rt.workers = calloc((size_t)n, sizeof *ws_rt.workers);
    if (!ws_rt.workers)
      ws_fatal("out of memory");
    for (int i = 0; i < n; i++)
      ws_rt.workers[i] = new_worker(i);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    ws_stack_attr(&attr, ws_rt.stack_size);
    for (int i = 1; i < n; i++) {
      int rc = pthread_create(&ws_rt.workers[i]->thread, &attr, worker_main,
                              ws_rt.workers[i]);
      if (rc)
        ws_fatal("cannot start worker thread %d of %d: %s; lower "
                 "WS_NUM_WORKERS or WS_STACK_SIZE",
                 i, n, strerror(rc));
    }
    pthread_attr_destroy(&attr);
    atomic_store_explicit(&ws_rt.started, 1, ws_release);
  }
  pthread_mutex_unlock(&ws_rt_lock);
}

/* A thread the runtime does not own calls spawning code when there is one
 * worker only (the main thread, which may be blocked): it runs its calls
 * itself, on a deque of its own that no thief visits, freed when the
 * thread ends. */
static pthread_key_t own_deque_key;
static pthread_once_t own_deque_once = PTHREAD_ONCE_INIT;

static void free_own_deque(void *w) {
  ws_slots_free(&ws_my_dq);
  atomic_store_explicit(&ws_my_dq.T, NULL, ws_relaxed);
  ws_tls_self = NULL;
  free(w);
}

static void make_own_deque_key(void) {
  if (pthread_key_create(&own_deque_key, free_own_deque))
    ws_fatal("cannot create a thread key for the deques of other threads");
}

static void bind_own_deque(void) {
  pthread_once(&own_deque_once, make_own_deque_key);
  ws_worker *w = new_worker(-1);
  if (ws_rt.ops->init(&ws_my_dq, w, ws_rt.deque_size))
    ws_fatal("cannot allocate a deque of %zu tasks for a thread of the "
             "program; lower WS_DEQUE_SIZE",
             ws_rt.deque_size);
  w->dq = &ws_my_dq;
  w->thread = pthread_self();
  ws_tls_self = w;
  pthread_setspecific(own_deque_key, w);
}


/* The count is fixed from here on: the workers start. */
int ws_num_workers(void) {
  int saved_errno = errno;
  ws_start();
  errno = saved_errno;
  return ws_rt.nworkers;
}

/* The main thread is worker 0 before it binds its deque too; a thread of
 * the program's is -1, also when it runs its calls itself (one worker). */
int ws_worker_id(void) {
  ws_worker *w = ws_tls_self;
  if (w)
    return w->id;
  return ws_is_main_thread() ? 0 : -1;
}

static ws_slot *bind_slow(void) {
  if (atomic_load_explicit(&ws_rt.shutdown, ws_acquire))
    ws_fatal("ws_spawn/ws_sync after the runtime stopped (at exit)");
  ws_start();
  if (ws_is_main_thread()) {
    if (!ws_tls_self)
      bind_worker(ws_rt.workers[0]);
  } else if (ws_rt.nworkers == 1) {
    if (!ws_tls_self)
      bind_own_deque();
  } else {
    return NULL; /* the entry point submits its call (submit.c) */
  }
  return atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
}

/* The slow path of an entry point (tail.c); what the runtime does here
 * (starting threads, a deque's memory, a wake) leaves errno alone. */
ws_slot *ws_bind_caller(void) {
  if (atomic_load_explicit(&ws_my_dq.entry.e.handler_marks, ws_relaxed))
    ws_refuse_in_handler();
  int saved_errno = errno;
  if (atomic_load_explicit(&ws_my_dq.entry.e.wake, ws_relaxed))
    ws_entry_wake();
  ws_slot *t = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  if (!t) /* else bound, and not in a handler */
    t = bind_slow();
  errno = saved_errno;
  return t;
}
