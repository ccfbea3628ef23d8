/*
 * shutdown.c — the end of the runtime: at exit the workers (parked ones
 * included) leave their loops, are joined and freed (statistics printed
 * first, WS_STATS); in a child of fork(), which has the forking thread
 * only, nothing waits for the parent's threads.  Spawning code that runs
 * after it (atexit handlers registered before the runtime's, destructors)
 * runs serially on the calling thread (startup.c, ws_bind_caller).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "idle.h"
#include "shutdown.h"
#include "stats.h"
#include "worker.h"

/* Waits up to ~1 s for the workers to leave their loops.  They are idle
 * unless exit() was called while tasks still run; then do not wait. */
static int workers_stopped(void) {
  int threads = atomic_load_explicit(&ws_rt.nstarted, ws_acquire) - 1;
  for (int i = 0; i < 1000; i++) {
    if (atomic_load_explicit(&ws_rt.exited, ws_acquire) == threads)
      return 1;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  return 0;
}

/* fork(): the child has the forking thread only.  Its deque stays as the
 * fork found it; what the parent's thieves were doing to it at that moment
 * is undone (the lock of the THE family, a private deque's pending
 * request), so no push, take or sync of the child waits for a thread it
 * does not have.  The child runs serially from here on: every task it
 * spawns is taken back by itself, and ws_shutdown joins nothing. */
static void ws_atfork_child(void) {
  /* Workers not started yet (they start at first use): the child is a
   * process of its own and starts its own. */
  if (!atomic_load_explicit(&ws_rt.started, ws_relaxed))
    return;
  ws_rt.forked = 1;
  if (ws_tls_self) {
    atomic_store_explicit(&ws_my_dq.lock, 0, ws_relaxed);
    atomic_store_explicit(&ws_my_dq.request, WS_REQUESTS_CLOSED, ws_relaxed);
  }
}

static void ws_shutdown(void) {
  if (ws_rt.forked) {
    /* A forked child: the worker threads are the parent's.  Waiting for
     * them cost every child 1 s (issue 14); their memory is the parent's
     * copy, left alone. */
    atomic_store_explicit(&ws_rt.shutdown, 1, ws_release);
    if (ws_tls_self)
      ws_tls_self->spawns = ws_tls_spawns;
    if (ws_rt.stats)
      ws_stats_print(stderr);
    return;
  }
  /* Under the lock: the start and a change of the count (startup.c)
   * either started their threads before this, or see the shutdown and
   * start none. */
  pthread_mutex_lock(&ws_rt_lock);
  int started = atomic_load_explicit(&ws_rt.started, ws_acquire);
  atomic_store_explicit(&ws_rt.shutdown, 1, ws_release);
  pthread_mutex_unlock(&ws_rt_lock);
  if (!started) {
    if (ws_rt.stats)
      ws_stats_print(stderr);
    return;
  }
  ws_wake_all(); /* parked workers too */
  int threads = atomic_load_explicit(&ws_rt.nstarted, ws_acquire);
  ws_worker *w0 = ws_rt.workers[0];
  int main_bound = atomic_load_explicit(&w0->ready, ws_acquire);
  if (main_bound && ws_rt.ops->quiesce)
    ws_rt.ops->quiesce(w0->dq);
  int joined = ws_is_main_thread() && workers_stopped();
  if (joined)
    for (int i = 1; i < threads; i++)
      pthread_join(ws_rt.workers[i]->thread, NULL);
  if (main_bound)
    w0->spawns = ws_tls_spawns;
  if (ws_rt.stats)
    ws_stats_print(stderr);
  if (!joined)
    return; /* threads may still touch their deques: leave them */
  /* The worker threads' deques went with their threads: only their slot
   * arrays remain.  Worker 0's is ours, and stays: spawning code that runs
   * later on this thread (an atexit handler registered before ours, a
   * destructor) runs on it serially, nobody steals any more. */
  for (int i = 1; i < threads; i++) {
    free(ws_rt.workers[i]);
    ws_rt.workers[i] = NULL;
  }
}

void ws_shutdown_at_exit(void) {
  if (pthread_atfork(NULL, NULL, ws_atfork_child))
    ws_fatal("cannot register the runtime's fork handler");
  atexit(ws_shutdown);
}
