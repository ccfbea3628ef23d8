/*
 * worker.h — a worker, and the runtime state shared by all workers.
 */
#ifndef WS_WORKER_H
#define WS_WORKER_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "fatal.h"
#include "deque.h"

/* Counted on slow paths only: the fast paths count nothing. */
typedef struct ws_counters {
  uint64_t steals;       /* tasks this worker stole (leaps included) */
  uint64_t leaps;        /* ... of which from the thief of a task it waited for */
  uint64_t aborts;       /* steal attempts that returned ABORT */
  uint64_t echo_waits;   /* THEP steals that waited for the worker's echo */
  uint64_t stolen_syncs; /* syncs that found their task stolen */
  uint64_t sleeps;       /* times the idle worker went to sleep */
  /* How this worker's steals were made safe against the owner's unfenced
   * take: by the bound (T - delta > h), by a barrier forced on the owner
   * (FF-MB), by THEP's echo; the others' by a fence or lock of the owner's
   * or a request it answered.  barriers: barriers forced (steal or not). */
  uint64_t safe_bound, safe_barrier, safe_echo, barriers;
} ws_counters;

struct ws_worker {
  ws_dq *dq; /* the owning thread's ws_my_dq, once the thread runs */
  _Atomic int ready; /* dq is set up: thieves may look at it */
  alignas(WS_CACHE_LINE) ws_counters c;
  uint64_t spawns; /* ws_tls_spawns of the owning thread, at its exit */
  /* Barriers this worker's thread has made for FF-MB thieves when the
   * fallback (a signal) forces them. */
  alignas(WS_CACHE_LINE) _Atomic uint64_t barriers_answered;
  uint64_t rng;
  /* Entry wakes this worker may still ask for before a steal proves them
   * worth it (scheduler.c). */
  int entry_credit;
  int id;
  pthread_t thread;
};

typedef struct ws_runtime {
  const ws_deque_ops *ops;
  int nworkers;
  ws_worker **workers;
  /* Thieves' bound on take() stores hidden in the worker's store buffer,
   * delta = max_i ceil(S / (x_i + 1)) (paper 000 §4).  INT64_MAX: infinite
   * (THEP always waits for the echo; FF-THE/FF-CL never steal). */
  int64_t delta;
  /* delta where S was validated (set by WS_STORE_BUFFER, a calibration,
   * or a CPU-table row with evidence), else infinite: FF-MB never trusts
   * a guessed S. */
  int64_t delta_validated;
  uint32_t S;
  int S_inf;
  const char *S_source;
  uint32_t x;
  const char *x_source;
  int counts_spawns; /* every module with takes was compiled with -fws-stats */
  size_t deque_size;
  size_t stack_size;     /* of each worker thread (WS_STACK_SIZE) */
  pthread_t main_thread; /* the thread that ran the configuration: worker 0 */
  int stats;
  _Atomic int shutdown;
  _Atomic int sleepers;
  _Atomic uint32_t wake_seq;
  _Atomic int exited;
  _Atomic int started;   /* the workers run (ws_start) */
  _Atomic int submitted; /* calls of other threads waiting for a worker */
  /* In a child of fork(): only the thread that forked is here (set by the
   * pthread_atfork child handler, before the child runs anything else).
   * The child runs serially on that thread's deque; nobody steals. */
  int forked;
} ws_runtime;

extern ws_runtime ws_rt;
extern __thread ws_worker *ws_tls_self __attribute__((tls_model("initial-exec")));

/* rt.c: guards the configuration against the start (a module dlopen'ed
 * while the workers start) and the worker count. */
extern pthread_mutex_t ws_rt_lock;
/* rt.c: is the caller the main thread (worker 0)? */
int ws_is_main_thread(void);
/* ws_fatal, ws_fatal_in_handler: fatal.h. */

/* startup.c: starts the workers, once; the program's count is fixed then. */
void ws_start(void);
/* configure.c: ws_rt as its constructor configured it from the environment.
 * A part of the runtime that reads the configuration (the pools, the
 * start-up) asks here: libws is an archive, and this reference is what
 * links the constructor into the program (rt.c alone would leave ws_rt
 * zero). */
const ws_runtime *ws_runtime_configured(void);
/* The calling thread's tail after starting the runtime and binding the
 * thread's deque (main: worker 0; another thread, when there is one worker
 * only: a deque of its own), or NULL where the thread's calls must be
 * submitted to the workers.  First, inside a signal handler of the
 * program's, stops the program (signals.c). */
ws_slot *ws_bind_caller(void);

/* submit.c: runs one submitted call if there is one (idle workers). */
int ws_serve_submission(ws_worker *self);

/* scheduler.c */
void ws_worker_loop(ws_worker *w);
void ws_run_stolen(ws_worker *self, ws_slot *t);

/* Monotonic time in ns (a private thief's patience, a stolen task's length). */
static inline uint64_t ws_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t ws_next_rand(ws_worker *w) {
  uint64_t x = w->rng; /* xorshift64 */
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return w->rng = x;
}

#endif
