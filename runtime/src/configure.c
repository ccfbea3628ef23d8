/*
 * configure.c — the runtime's configuration, before main: a constructor
 * (or the first use of the runtime, when that comes first: in a
 * constructor of a library loaded at start-up, or in one of the
 * executable's that runs before libws's) reads the environment (env.h) and
 * the modules' delta records (records.h, and those that shared libraries
 * register, __ws_register_module, also when dlopen'ed later), chooses the
 * deque variant, resolves S and delta, and fills ws_rt.  A bad value stops
 * the program before it runs anything.  The workers start later, at first
 * use after the constructor (startup.c).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "mainexit.h"
#include "membarrier.h"
#include "records.h"
#include "shutdown.h"
#include "store_buffer.h"
#include "worker.h"

/* Records registered by module constructors (ws/abi.h,
 * __ws_register_module) before ws_configure ran: those of the shared
 * libraries the executable was linked with. */
#define WS_MAX_EARLY_RECORDS 4096
static const ws_module_record *early_records[WS_MAX_EARLY_RECORDS];
static size_t n_early_records;
static int configured; /* under ws_rt_lock */

/* exit(2) from under ws_rt_lock: the shutdown at exit takes it. */
static void exit_unlocked(void) {
  pthread_mutex_unlock(&ws_rt_lock);
  exit(2);
}

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
  pthread_mutex_lock(&ws_rt_lock);
  if (!configured) {
    if (n_early_records == WS_MAX_EARLY_RECORDS) {
      fprintf(stderr, "ws: more than %d modules with spawns in shared libraries\n",
              WS_MAX_EARLY_RECORDS);
      exit_unlocked();
    }
    early_records[n_early_records++] = r;
    pthread_mutex_unlock(&ws_rt_lock);
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
    exit_unlocked();
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
      exit_unlocked();
    }
    /* No thief yet, or none that trusts it: the larger delta is simply
     * the program's. */
    ws_rt.x = one.x;
    ws_rt.x_source = one.x_module;
    if (ws_rt.delta_validated != INT64_MAX)
      ws_rt.delta_validated = need;
    ws_rt.delta = need;
  }
  pthread_mutex_unlock(&ws_rt_lock);
}

/* Reads the environment and the modules' records, resolves S and the
 * variant: everything but the workers, which start at first use.  Once:
 * from the constructor below, or earlier, at the first use of the runtime
 * by a constructor that runs before it (configure_once). */
static void ws_configure(void) {
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

  /* Default (ws/variants.def WS_DEFAULT_VARIANT): FF-MB (fence-free, and
   * sound with no S to trust: docs/design.md, "The default deque"), also
   * without bounded TSO, where every steal that may conflict takes the
   * barrier (WS_WEAK_MEMORY); the fenced default where it is not sound. */
  const ws_deque_ops *ops = ws_variant_by_id(WS_DEFAULT_VARIANT_ID);
  if (!WS_TSO && !ops->weak_memory)
    ops = ws_variant_by_id(WS_DEFAULT_FENCED_VARIANT_ID);
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
  if (!WS_TSO && !ops->weak_memory) {
    fprintf(stderr,
            "ws: the %s deque is not offered on this processor (no bounded "
            "TSO): %s; use %s\n",
            ops->name, ws_variant_weak_memory_why(ops),
            ws_variant_weak_memory_names());
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
  n = n > WS_MAX_WORKERS ? WS_MAX_WORKERS : n;
#ifdef WS_RACE
  n = 1; /* -fws-race checks a run on one worker */
#endif

  pthread_mutex_lock(&ws_rt_lock);
  /* A count the program set (ws_set_num_workers, maybe in a constructor
   * that ran before this one) wins over the environment's and the CPUs'. */
  if (!ws_rt.num_set)
    atomic_store_explicit(&ws_rt.nworkers, n, ws_relaxed);
  configured = 1;
  pthread_mutex_unlock(&ws_rt_lock);

  /* FF-MB's barrier, set up before any other thread of ours exists. */
  if (ops->id == WS_VARIANT_ID_ffmb)
    ws_barrier_init(env.barrier_signal);
  ws_rt.main_thread = pthread_self();
  ws_rt.stack_size = env.stack_size ? env.stack_size : WS_DEFAULT_STACK_SIZE;
  ws_main_exit_watch();
  ws_shutdown_at_exit();
}

static pthread_once_t configure_once = PTHREAD_ONCE_INIT;
static _Atomic int constructed;

/* Before main, on the main thread: the libraries loaded at start-up have
 * run their constructors (and registered their modules), so have the
 * executable's of higher priority.  Configured already if one of those
 * used the runtime. */
__attribute__((constructor(101))) static void ws_constructor(void) {
  pthread_once(&configure_once, ws_configure);
  atomic_store_explicit(&constructed, 1, ws_release);
}

int ws_constructed(void) {
  return atomic_load_explicit(&constructed, ws_acquire);
}

const ws_runtime *ws_runtime_configured(void) {
  pthread_once(&configure_once, ws_configure);
  return &ws_rt;
}
