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
   * loop, so no thief still looks at it when the thread goes.  No thread
   * starts once the runtime stops (ws_set_num_workers says EBUSY then). */
  atomic_fetch_add_explicit(&ws_rt.exited, 1, ws_release);
  while (atomic_load_explicit(&ws_rt.exited, ws_acquire) <
         atomic_load_explicit(&ws_rt.nstarted, ws_acquire) - 1)
    sched_yield();
  return NULL;
}

#ifdef WS_RACE
#define WS_RACE_WORKERS(n) 1
#else
#define WS_RACE_WORKERS(n) (n)
#endif

/* The workers' table, for WS_MAX_WORKERS of them, and worker 0, the main
 * thread's (under ws_rt_lock).  Allocated once: thieves index it while the
 * count changes. */
static void prepare_locked(void) {
  if (ws_rt.workers)
    return;
  ws_rt.workers = calloc(WS_MAX_WORKERS, sizeof *ws_rt.workers);
  if (!ws_rt.workers)
    ws_fatal("out of memory");
  ws_rt.workers[0] = ws_worker_new(0);
  atomic_store_explicit(&ws_rt.nstarted, 1, ws_release);
}

/* Threads for workers nstarted..n-1 (under ws_rt_lock).  Each is parked
 * until the count reaches it: at the start the count is n already. */
static void start_threads_locked(int n) {
  int from = atomic_load_explicit(&ws_rt.nstarted, ws_relaxed);
  if (n <= from)
    return;
  for (int i = from; i < n; i++)
    ws_rt.workers[i] = ws_worker_new(i);
  atomic_store_explicit(&ws_rt.nstarted, n, ws_release);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  ws_stack_attr(&attr, ws_rt.stack_size);
  for (int i = from; i < n; i++) {
    int rc = pthread_create(&ws_rt.workers[i]->thread, &attr, worker_main,
                            ws_rt.workers[i]);
    if (rc)
      ws_fatal("cannot start worker thread %d of %d: %s; lower "
               "WS_NUM_WORKERS or WS_STACK_SIZE",
               i, n, strerror(rc));
  }
  pthread_attr_destroy(&attr);
}

/* The workers 1..N-1; worker 0, the main thread, binds itself when it
 * first runs spawning code (ws_bind_caller).  Thieves skip a worker that
 * is not ready.  Only once libws's constructor has run (ws_constructed):
 * before, spawning code runs serially (ws_bind_caller). */
void ws_start(void) {
  if (atomic_load_explicit(&ws_rt.started, ws_acquire))
    return;
  ws_runtime_configured();
  pthread_mutex_lock(&ws_rt_lock);
  /* Not at exit (the shutdown is under the lock): code that runs then runs
   * serially. */
  if (!atomic_load_explicit(&ws_rt.started, ws_relaxed) &&
      !atomic_load_explicit(&ws_rt.shutdown, ws_relaxed)) {
    prepare_locked();
    start_threads_locked(atomic_load_explicit(&ws_rt.nworkers, ws_relaxed));
    atomic_store_explicit(&ws_rt.started, 1, ws_release);
  }
  pthread_mutex_unlock(&ws_rt_lock);
}

/* ---- ws_set_num_workers once the workers run ---- */

/* One change of the count at a time; ws_rt_lock is held only briefly
 * within one (a task may take it: a dlopen registers its modules). */
static pthread_mutex_t resize_lock = PTHREAD_MUTEX_INITIALIZER;

/* Nothing outstanding that the count could matter to, as far as this
 * thread can tell: it is no worker thread (those run only stolen tasks
 * and handed-over calls), its own deque holds no task (compiled code
 * publishes the tail of split and private deques before any call that may
 * enter spawning code, this one included, so T is current here; a deque
 * holds a task, stolen or not, exactly while T is above its bottom), the
 * main thread's neither (from another thread: T as the THE family
 * publishes it at each push and take; for split and private the tail last
 * published), and no worker runs a stolen task.  The calls handed over
 * are looked at under their queue's lock (apply_count). */
static int quiescent(void) {
  ws_worker *self = ws_tls_self;
  if (self && self->id >= 1)
    return 0;
  ws_slot *t = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  if (t && t != ws_my_dq.base)
    return 0;
  if (!ws_is_main_thread()) {
    ws_worker *w0 = ws_rt.workers[0];
    if (atomic_load_explicit(&w0->ready, ws_acquire)) {
      ws_slot *t0 = atomic_load_explicit(&w0->dq->T, ws_acquire);
      if (t0 && t0 != w0->dq->base)
        return 0;
    }
  }
  int started = atomic_load_explicit(&ws_rt.nstarted, ws_acquire);
  for (int i = 1; i < started; i++)
    if (atomic_load_explicit(&ws_rt.workers[i]->running, ws_seq_cst))
      return 0;
  return 1;
}

/* Under the queue's lock, with no call queued or running: the new count.
 * Workers below it that were parked look again; those at or beyond it
 * park at the top of their loop. */
static void apply_count(void *arg) {
  int n = *(int *)arg;
  int old = atomic_exchange_explicit(&ws_rt.nworkers, n, ws_seq_cst);
  if (n > old)
    ws_unpark_all();
}

static int change_count(int n) {
  if (atomic_load_explicit(&ws_rt.nworkers, ws_acquire) == n)
    return 0;
  ws_worker *self = ws_tls_self;
  if (self && self->id >= 1)
    return EBUSY; /* a stolen task or a handed-over call is running: this */
  pthread_mutex_lock(&resize_lock);
  int rc = 0;
  int old = atomic_load_explicit(&ws_rt.nworkers, ws_acquire);
  if (ws_rt.forked || atomic_load_explicit(&ws_rt.shutdown, ws_acquire) ||
      !quiescent()) {
    rc = old == n ? 0 : EBUSY;
    goto out;
  }
  if (old == n)
    goto out;
  /* Threads for the new workers first: they park until the count
   * includes them, and stay parked if it does not (EBUSY below). */
  pthread_mutex_lock(&ws_rt_lock);
  int stopped = atomic_load_explicit(&ws_rt.shutdown, ws_relaxed);
  if (!stopped)
    start_threads_locked(n);
  pthread_mutex_unlock(&ws_rt_lock);
  if (stopped) {
    rc = EBUSY;
    goto out;
  }
  if (!ws_submissions_quiet_then(apply_count, &n)) {
    rc = EBUSY;
    goto out;
  }
  if (n < old) {
    /* Napping workers look at the count now; return once those beyond it
     * have parked, so that no task spawned from here on runs there.  They
     * are idle (quiescent): each is at most one steal attempt away. */
    ws_wake_all();
    int started = atomic_load_explicit(&ws_rt.nstarted, ws_acquire);
    for (int i = n; i < started; i++) {
      ws_worker *w = ws_rt.workers[i];
      for (unsigned spins = 0; !atomic_load_explicit(&w->parked, ws_seq_cst) &&
                               !atomic_load_explicit(&ws_rt.shutdown, ws_acquire);
           spins++) {
        if (spins < 64) {
          sched_yield();
        } else {
          struct timespec ts = {0, 100000};
          nanosleep(&ts, NULL);
        }
      }
    }
  }
out:
  pthread_mutex_unlock(&resize_lock);
  return rc;
}

int ws_set_num_workers(int n) {
  if (n < 1 || n > WS_MAX_WORKERS)
    return EINVAL;
  n = WS_RACE_WORKERS(n);
  int saved_errno = errno;
  pthread_mutex_lock(&ws_rt_lock);
  int started = atomic_load_explicit(&ws_rt.started, ws_relaxed);
  if (!started) {
    /* Before the start, before the configuration too: the count it will
     * start with, whatever the environment says. */
    atomic_store_explicit(&ws_rt.nworkers, n, ws_relaxed);
    ws_rt.num_set = 1;
  }
  pthread_mutex_unlock(&ws_rt_lock);
  int rc = started ? change_count(n) : 0;
  errno = saved_errno;
  return rc;
}

/* Starts the workers (once libws's constructor has run). */
int ws_num_workers(void) {
  int saved_errno = errno;
  ws_runtime_configured();
  if (ws_constructed())
    ws_start();
  errno = saved_errno;
  return atomic_load_explicit(&ws_rt.nworkers, ws_acquire);
}

/* The main thread is worker 0 before it binds its deque too; a thread of
 * the program's is -1, also when it runs its calls itself (one worker). */
int ws_worker_id(void) {
  ws_worker *w = ws_tls_self;
  if (w)
    return w->id;
  return ws_is_main_thread() ? 0 : -1;
}

/* Before libws's constructor ran (spawning code in a constructor of a
 * library loaded at start-up, or in one of the executable's before libws's)
 * the main thread runs serially on worker 0's deque, no thread started:
 * the libraries' modules may not all be registered yet.  The wake half of
 * its entry word stays set meanwhile, so that each entry point comes back
 * here (its slow path), until one finds the constructor done and starts
 * the workers. */
static void early_main(void) {
  if (ws_constructed()) {
    ws_start();
    return;
  }
  atomic_store_explicit(&ws_my_dq.entry.e.wake, 1, ws_relaxed);
}

static ws_slot *bind_slow(void) {
  int main_thread = ws_is_main_thread();
  /* At exit, once the workers stopped (an atexit handler, a destructor):
   * the thread runs its spawning code serially, on a deque of its own, as
   * a child of fork does on its.  A thread that had one keeps it (the
   * main thread keeps worker 0's): it never comes here. */
  if (atomic_load_explicit(&ws_rt.shutdown, ws_acquire))
    return ws_bind_own_deque(main_thread ? 0 : -1);
  ws_runtime_configured();
  if (!ws_constructed()) {
    if (!main_thread)
      return ws_bind_own_deque(-1);
    pthread_mutex_lock(&ws_rt_lock);
    prepare_locked();
    pthread_mutex_unlock(&ws_rt_lock);
    bind_worker(ws_rt.workers[0]);
    early_main();
    return atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  }
  ws_start();
  if (!atomic_load_explicit(&ws_rt.started, ws_acquire))
    return ws_bind_own_deque(main_thread ? 0 : -1); /* exit came first */
  if (main_thread) {
    if (!ws_tls_self)
      bind_worker(ws_rt.workers[0]);
  } else if (atomic_load_explicit(&ws_rt.nworkers, ws_acquire) == 1) {
    if (!ws_tls_self)
      ws_bind_own_deque(-1);
  } else {
    return NULL; /* the entry point submits its call (submit.c) */
  }
  return atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
}

/* A spawning function lowered in place (variadic, weak, a coroutine's
 * body: no entry point that could hand its call over) entered on a thread
 * of the program's while the workers would take its calls (tail.c,
 * __ws_tail_owned): the function runs on a deque of the thread's own,
 * serially, as a thread does when there is one worker.  The thread's other
 * calls still go to the workers whenever nothing of its own is
 * outstanding (ws_bind_caller).  Before issue 33's campaign this stopped
 * the program. */
ws_slot *ws_tail_in_place(void) {
  ws_slot *t = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  if (!t) {
    int saved_errno = errno;
    t = ws_bind_own_deque(-1);
    errno = saved_errno;
  }
  atomic_store_explicit(&ws_my_dq.entry.e.in_place, 1, ws_relaxed);
  return t;
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
  if (t) {
    /* Bound, and not in a handler; the main thread before the start. */
    if (ws_unlikely(!atomic_load_explicit(&ws_rt.started, ws_acquire)) &&
        ws_tls_self && ws_tls_self->id == 0)
      early_main();
    /* A thread of the program's with a deque for the functions lowered in
     * place: with nothing of its own outstanding, the call goes to the
     * workers (submit.c runs it here if nobody would take it). */
    else if (atomic_load_explicit(&ws_my_dq.entry.e.in_place, ws_relaxed) &&
             t == ws_my_dq.base)
      t = NULL;
  } else {
    t = bind_slow();
  }
  errno = saved_errno;
  return t;
}
