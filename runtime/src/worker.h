/*
 * worker.h — a worker, and the runtime state shared by all workers.
 */
#ifndef WS_WORKER_H
#define WS_WORKER_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
  /* Stolen tasks this worker is running (nested in its joins): written by
   * the worker at each steal, read by ws_set_num_workers (startup.c),
   * which changes the count only while no task runs. */
  _Atomic int running;
  /* 1 while the worker is parked: its id is at or beyond the count, and
   * it steals nothing until the count grows past it (scheduler.c). */
  _Atomic int parked;
};

typedef struct ws_runtime {
  const ws_deque_ops *ops;
  /* The count: workers 0..nworkers-1 steal and run calls of other
   * threads.  Set before the start (configure.c, ws_set_num_workers), and
   * changed afterwards by ws_set_num_workers while the runtime is
   * quiescent (startup.c); thieves read it at each attempt. */
  _Atomic int nworkers;
  /* The workers that exist: 0 (the main thread) and threads 1..nstarted-1,
   * those at or beyond nworkers parked.  `workers` has WS_MAX_WORKERS
   * entries, allocated once, so a thief never sees it move; an entry is
   * set before the count first reaches it. */
  _Atomic int nstarted;
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
  /* Parked workers wait on this futex word; a change of the count (or the
   * shutdown) bumps it and wakes them (idle.c). */
  _Atomic uint32_t park_seq;
  /* ws_set_num_workers set nworkers: neither WS_NUM_WORKERS nor the CPU
   * count overrides it, whenever the configuration runs (under
   * ws_rt_lock). */
  int num_set;
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

/* startup.c: starts the workers, once (later changes of the count:
 * ws_set_num_workers). */
void ws_start(void);
/* configure.c: ws_rt configured from the environment, by its constructor
 * or, when something of the runtime's is used before that constructor ran
 * (a library's constructor, or one of the executable's placed before
 * libws's), then and there.  A part of the runtime that reads the
 * configuration (the pools, the start-up) asks here: libws is an archive,
 * and this reference is what links the constructor into the program
 * (rt.c alone would leave ws_rt zero). */
const ws_runtime *ws_runtime_configured(void);
/* configure.c: libws's constructor has run, so has every constructor of
 * the libraries loaded at start-up (which register their modules' records
 * there): the workers may start.  Before it, spawning code runs serially
 * on the calling thread. */
int ws_constructed(void);
/* The calling thread's tail after starting the runtime and binding the
 * thread's deque (main: worker 0; another thread, when there is one worker
 * only: a deque of its own), or NULL where the thread's calls must be
 * submitted to the workers.  First, inside a signal handler of the
 * program's, stops the program (signals.c). */
ws_slot *ws_bind_caller(void);

/* submit.c: runs one submitted call if there is one (idle workers). */
int ws_serve_submission(ws_worker *self);
/* submit.c: the calling thread runs its calls itself, on a deque of its
 * own that no thief visits (a thread of the program's when there is one
 * worker, any thread without a deque once the runtime has stopped), freed
 * when the thread ends; worker id `id` (-1, or 0 for the main thread).
 * Returns its tail. */
ws_slot *ws_bind_own_deque(int id);
/* submit.c: with no call queued or running, fn(arg) under the queue's lock
 * (a submitter looks at the count under it): 1; else 0, fn not run. */
int ws_submissions_quiet_then(void (*fn)(void *), void *arg);

/* scheduler.c */
void ws_worker_loop(ws_worker *w);
void ws_run_stolen(ws_worker *self, ws_slot *t);

/* Monotonic time in ns (a private thief's patience, a stolen task's length). */
static inline uint64_t ws_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A worker with its id, zeroed but for its random state. */
static inline ws_worker *ws_worker_new(int id) {
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

static inline uint64_t ws_next_rand(ws_worker *w) {
  uint64_t x = w->rng; /* xorshift64 */
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return w->rng = x;
}

#endif
