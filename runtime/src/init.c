/*
 * init.c — start-up and shutdown.  The environment is read in a
 * constructor, before main: a bad value stops the program before it runs
 * anything.  The workers start at first use (the first call of a spawning
 * function, or ws_num_workers), so that the program may set their number
 * first (ws_set_num_workers).  The main thread is worker 0; workers 1..N-1
 * are threads of their own.
 */
#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
#include "idle.h"
#include "mainexit.h"
#include "membarrier.h"
#include "records.h"
#include "signals.h"
#include "stacks.h"
#include "stats.h"
#include "store_buffer.h"
#include "worker.h"

/* Guards the start and the worker count. */
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t main_thread;
/* The workers' stack size (WS_STACK_SIZE), for ws_start. */
static size_t worker_stack_size;

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

/* Waits up to ~1 s for the workers to leave their loops.  They are idle
 * unless exit() was called while tasks still run; then do not wait. */
static int workers_stopped(void) {
  for (int i = 0; i < 1000; i++) {
    if (atomic_load_explicit(&ws_rt.exited, ws_acquire) == ws_rt.nworkers - 1)
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
  if (!atomic_load_explicit(&ws_rt.started, ws_acquire)) {
    if (ws_rt.stats)
      ws_stats_print(stderr);
    return;
  }
  atomic_store_explicit(&ws_rt.shutdown, 1, ws_release);
  ws_wake_all();
  ws_worker *w0 = ws_rt.workers[0];
  int main_bound = atomic_load_explicit(&w0->ready, ws_acquire);
  if (main_bound && ws_rt.ops->quiesce)
    ws_rt.ops->quiesce(w0->dq);
  int joined = pthread_equal(pthread_self(), main_thread) && workers_stopped();
  if (joined)
    for (int i = 1; i < ws_rt.nworkers; i++)
      pthread_join(ws_rt.workers[i]->thread, NULL);
  if (main_bound)
    w0->spawns = ws_tls_spawns;
  if (ws_rt.stats)
    ws_stats_print(stderr);
  if (!joined)
    return; /* threads may still touch their deques: leave them */
  /* The worker threads' deques went with their threads: only their slot
   * arrays remain, and worker 0's, which is ours. */
  atomic_store_explicit(&ws_my_dq.T, NULL, ws_relaxed);
  for (int i = 0; i < ws_rt.nworkers; i++)
    free(ws_rt.workers[i]);
  free(ws_rt.workers);
  ws_rt.workers = NULL;
  ws_tls_self = NULL;
}

/* Records registered by module constructors (ws/abi.h,
 * __ws_register_module) before ws_configure ran: those of the shared
 * libraries the executable was linked with. */
#define WS_MAX_EARLY_RECORDS 4096
static const ws_module_record *early_records[WS_MAX_EARLY_RECORDS];
static size_t n_early_records;
static int configured; /* under start_lock */

void __ws_register_module(const ws_module_record *r) {
  /* The executable's own modules: ws_configure read their section. */
  const ws_module_record *rb, *re;
  ws_records_of_program(&rb, &re);
  if (rb && r >= rb && r < re)
    return;
  char err[512];
  ws_records_summary one;
  if (ws_records_scan(r, r + 1, &one, err, sizeof err)) {
    fprintf(stderr, "ws: %s\n", err);
    exit(2);
  }
  pthread_mutex_lock(&start_lock);
  if (!configured) {
    if (n_early_records == WS_MAX_EARLY_RECORDS) {
      fprintf(stderr, "ws: more than %d modules with spawns in shared libraries\n",
              WS_MAX_EARLY_RECORDS);
      exit(2);
    }
    early_records[n_early_records++] = r;
    pthread_mutex_unlock(&start_lock);
    return;
  }
  /* Configured: a library dlopen'ed later. */
  if (one.variant >= 0 && (unsigned)one.variant != ws_rt.ops->id) {
    fprintf(stderr,
            "ws: %s was compiled for the %s deque (-fws-fencefree=%s), but "
            "this program runs the %s deque; compile it with "
            "-fws-fencefree=%s\n",
            one.variant_module, ws_variant_by_id((unsigned)one.variant)->name,
            ws_variant_by_id((unsigned)one.variant)->name, ws_rt.ops->name,
            ws_rt.ops->name);
    exit(2);
  }
  if (one.variant >= 0 && !one.counts_spawns)
    ws_rt.counts_spawns = 0;
  ws_store_bound sb = {ws_rt.S, ws_rt.S_inf, ws_rt.S_source};
  int64_t need = ws_delta_for(&sb, one.x);
  /* Whether a thief of this variant trusts delta at all: the fenced and
   * the split and private deques do not, nor those that trust only a
   * validated S (ws/variants.def validated_only: FF-MB and THEP force a
   * barrier or wait for the echo instead) without one. */
  int trusted = ws_rt.ops->fence_free &&
                !(ws_rt.ops->validated_only &&
                  ws_rt.delta_validated == INT64_MAX);
  if (need > ws_rt.delta) {
    if (trusted && atomic_load_explicit(&ws_rt.started, ws_relaxed)) {
      /* A thief may be deciding with the smaller delta right now. */
      fprintf(stderr,
              "ws: %s has x = %u and needs delta >= %lld, but it was loaded "
              "after the workers started stealing with delta = %lld (x = %u "
              "from %s); link it at load time instead of dlopen'ing it, or "
              "compile it with -fws-fencefree-delta=%lld\n",
              one.x_module, one.x, (long long)need, (long long)ws_rt.delta,
              ws_rt.x, ws_rt.x_source, (long long)ws_rt.delta);
      exit(2);
    }
    /* No thief yet, or none that trusts it: the larger delta is simply
     * the program's. */
    ws_rt.x = one.x;
    ws_rt.x_source = one.x_module;
    if (ws_rt.delta_validated != INT64_MAX)
      ws_rt.delta_validated = need;
    ws_rt.delta = need;
  }
  pthread_mutex_unlock(&start_lock);
}

/* Reads the environment and the modules' records, resolves S and the
 * variant: everything but the workers, which start at first use. */
__attribute__((constructor(101))) static void ws_configure(void) {
  char err[512];
  ws_env env;
  if (ws_env_parse(ws_env_getenv, NULL, &env, err, sizeof err)) {
    fprintf(stderr, "ws: %s\n", err);
    exit(2);
  }

  /* The executable's records (its ws_delta section) and those that
   * modules of shared libraries loaded with it registered from their
   * constructors, which ran before this one. */
  const ws_module_record *rb, *re;
  ws_records_of_program(&rb, &re);
  size_t nsec = rb && re > rb ? (size_t)(re - rb) : 0;
  ws_module_record *all = malloc((nsec + n_early_records + 1) * sizeof *all);
  if (!all)
    ws_fatal("out of memory reading the modules' ws_delta records");
  for (size_t i = 0; i < nsec; i++)
    all[i] = rb[i];
  for (size_t i = 0; i < n_early_records; i++)
    all[nsec + i] = *early_records[i];
  ws_records_summary recs;
  if (ws_records_scan(all, all + nsec + n_early_records, &recs, err, sizeof err)) {
    fprintf(stderr, "ws: %s\n", err);
    exit(2);
  }
  free(all);

  /* Default (ws/variants.def WS_DEFAULT_VARIANT): FF-MB where bounded TSO
   * holds (fence-free, and sound with no S to trust: docs/design.md, "The
   * default deque"), the fenced THE elsewhere. */
  const ws_deque_ops *ops = ws_variant_by_id(
      WS_TSO ? WS_DEFAULT_VARIANT_ID : WS_DEFAULT_FENCED_VARIANT_ID);
  if (recs.variant >= 0) {
    ops = ws_variant_by_id((unsigned)recs.variant);
    if (env.deque && env.deque != ops) {
      fprintf(stderr,
              "ws: WS_DEQUE=%s, but %s was compiled for the %s deque "
              "(-fws-fencefree=%s); unset WS_DEQUE or recompile\n",
              env.deque->name, recs.variant_module, ops->name, ops->name);
      exit(2);
    }
  } else if (env.deque) {
    ops = env.deque;
  }
  if (ops->fence_free && !WS_TSO) {
    fprintf(stderr,
            "ws: the %s deque relies on bounded TSO (x86) and is not offered "
            "on this processor; use the, cl, split or private\n",
            ops->name);
    exit(2);
  }

  ws_store_bound sb = ws_resolve_store_buffer(&env);
  ws_rt.ops = ops;
  ws_rt.S = sb.S;
  ws_rt.S_inf = sb.inf;
  ws_rt.S_source = sb.source;
  ws_rt.x = recs.x;
  ws_rt.x_source = recs.x_module;
  ws_rt.counts_spawns = recs.counts_spawns;
  ws_rt.delta = ws_delta_for(&sb, recs.x);
  ws_rt.delta_validated =
      strcmp(sb.source, "default") == 0 ? INT64_MAX : ws_rt.delta;
  ws_rt.stats = env.stats;
  ws_rt.deque_size = env.deque_size ? env.deque_size : WS_DEFAULT_DEQUE_SIZE;

  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  int n = env.nworkers ? env.nworkers : (int)(ncpu > 0 ? ncpu : 1);
  ws_rt.nworkers = n > WS_MAX_WORKERS ? WS_MAX_WORKERS : n;
#ifdef WS_RACE
  ws_rt.nworkers = 1; /* -fws-race checks a run on one worker */
#endif

  pthread_mutex_lock(&start_lock);
  configured = 1;
  pthread_mutex_unlock(&start_lock);

  /* FF-MB's barrier, set up before any other thread of ours exists. */
  if (ops->id == WS_VARIANT_ID_ffmb)
    ws_barrier_init(env.barrier_signal);
  main_thread = pthread_self();
  worker_stack_size = env.stack_size ? env.stack_size : WS_DEFAULT_STACK_SIZE;
  if (pthread_atfork(NULL, NULL, ws_atfork_child))
    ws_fatal("cannot register the runtime's fork handler");
  ws_main_exit_watch();
  atexit(ws_shutdown);
}

#ifdef WS_RACE
#define WS_RACE_WORKERS(n) 1
#else
#define WS_RACE_WORKERS(n) (n)
#endif

int ws_set_num_workers(int n) {
  if (n < 1 || n > WS_MAX_WORKERS)
    return EINVAL;
  pthread_mutex_lock(&start_lock);
  int started = atomic_load_explicit(&ws_rt.started, ws_relaxed);
  if (!started)
    ws_rt.nworkers = WS_RACE_WORKERS(n);
  pthread_mutex_unlock(&start_lock);
  return started ? EBUSY : 0;
}

/* The workers 1..N-1; worker 0, the main thread, binds itself when it
 * first runs spawning code (ws_bind_caller).  Thieves skip a worker that
 * is not ready. */
void ws_start(void) {
  if (atomic_load_explicit(&ws_rt.started, ws_acquire))
    return;
  if (!ws_rt.ops)
    ws_fatal("ws_spawn/ws_sync before the runtime read its environment (a "
             "constructor that runs before libws's?)");
  pthread_mutex_lock(&start_lock);
  if (!atomic_load_explicit(&ws_rt.started, ws_relaxed)) {
    int n = ws_rt.nworkers;
    ws_rt.workers = calloc((size_t)n, sizeof *ws_rt.workers);
    if (!ws_rt.workers)
      ws_fatal("out of memory");
    for (int i = 0; i < n; i++)
      ws_rt.workers[i] = new_worker(i);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    ws_stack_attr(&attr, worker_stack_size);
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
  pthread_mutex_unlock(&start_lock);
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

int ws_is_main_thread(void) { return pthread_equal(pthread_self(), main_thread); }

const ws_runtime *ws_runtime_configured(void) { return &ws_rt; }

/* The count is fixed from here on: the workers start. */
int ws_num_workers(void) {
  ws_start();
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

ws_slot *ws_bind_caller(void) {
  if (atomic_load_explicit(&ws_my_dq.handler_marks, ws_relaxed))
    ws_refuse_in_handler();
  ws_slot *t = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  if (t)
    return t; /* bound, and not in a handler */
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
