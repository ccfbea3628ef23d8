/* stats.c — the WS_STATS=1 report, printed at exit. */
#include <inttypes.h>

#include "membarrier.h"
#include "stats.h"
#include "worker.h"

static void fmt_bound(char *buf, size_t n, int inf, uint64_t v) {
  if (inf)
    snprintf(buf, n, "inf");
  else
    snprintf(buf, n, "%" PRIu64, v);
}

/* Spawns are counted only by code compiled with -fws-stats: the fast
 * paths count nothing. */
static void fmt_spawns(char *buf, size_t n, uint64_t v) {
  if (ws_rt.counts_spawns)
    snprintf(buf, n, "%" PRIu64, v);
  else
    snprintf(buf, n, "uncounted");
}

/* Worker i, or one that counted nothing when the workers never started. */
static const ws_worker *worker_or_idle(int i) {
  static const ws_worker idle;
  return ws_rt.workers && ws_rt.workers[i] ? ws_rt.workers[i] : &idle;
}

void ws_stats_print(FILE *out) {
  ws_counters sum = {0};
  uint64_t spawns = 0;
  /* The count, and a line for each worker that exists: those beyond the
   * count (ws_set_num_workers made it smaller) are parked and say so, and
   * their counters count in the sums. */
  int count = atomic_load_explicit(&ws_rt.nworkers, ws_acquire);
  int lines = atomic_load_explicit(&ws_rt.nstarted, ws_acquire);
  if (lines < count)
    lines = count;
  for (int i = 0; i < lines; i++) {
    const ws_worker *w = worker_or_idle(i);
    spawns += w->spawns;
    sum.steals += w->c.steals;
    sum.leaps += w->c.leaps;
    sum.aborts += w->c.aborts;
    sum.echo_waits += w->c.echo_waits;
    sum.stolen_syncs += w->c.stolen_syncs;
    sum.sleeps += w->c.sleeps;
    sum.safe_bound += w->c.safe_bound;
    sum.safe_barrier += w->c.safe_barrier;
    sum.safe_echo += w->c.safe_echo;
    sum.barriers += w->c.barriers;
  }
  char S[32], delta[32], x[32], sp[32];
  fmt_bound(S, sizeof S, ws_rt.S_inf, ws_rt.S);
  /* No path from one take to another (or a variant without a bound, split
   * and private): x is unbounded, not 2^32 - 1. */
  fmt_bound(x, sizeof x, ws_rt.x == WS_X_UNBOUNDED, ws_rt.x);
  fmt_bound(delta, sizeof delta, ws_rt.delta == INT64_MAX, (uint64_t)ws_rt.delta);
  fmt_spawns(sp, sizeof sp, spawns);
  fprintf(out,
          "ws: variant=%s workers=%d S=%s delta=%s x=%s spawns=%s"
          " steals=%" PRIu64 " aborts=%" PRIu64 " echo_waits=%" PRIu64
          " leaps=%" PRIu64 " stolen_syncs=%" PRIu64 " sleeps=%" PRIu64
          " fence=%s S_from=%s x_from=%s safe=bound:%" PRIu64
          ",barrier:%" PRIu64 ",echo:%" PRIu64 ",fence:%" PRIu64
          " barriers=%" PRIu64 " barrier=%s\n",
          ws_rt.ops->name, count, S, delta, x, sp, sum.steals,
          sum.aborts, sum.echo_waits, sum.leaps, sum.stolen_syncs, sum.sleeps,
          WS_FENCE_NAME, ws_rt.S_source, ws_rt.x_source, sum.safe_bound,
          sum.safe_barrier, sum.safe_echo,
          sum.steals - sum.safe_bound - sum.safe_barrier - sum.safe_echo,
          sum.barriers, ws_barrier_name());
  for (int i = 0; i < lines; i++) {
    const ws_worker *w = worker_or_idle(i);
    fmt_spawns(sp, sizeof sp, w->spawns);
    fprintf(out,
            "ws: worker %d: spawns=%s steals=%" PRIu64 " leaps=%" PRIu64
            " aborts=%" PRIu64 " echo_waits=%" PRIu64 " stolen_syncs=%" PRIu64
            " sleeps=%" PRIu64 "%s\n",
            i, sp, w->c.steals, w->c.leaps, w->c.aborts, w->c.echo_waits,
            w->c.stolen_syncs, w->c.sleeps, i >= count ? " parked" : "");
  }
  if (ws_rt.forked)
    fprintf(out,
            "ws: forked child: ran serially on worker %d, the thread that "
            "called fork(); the counters include the parent's up to the "
            "fork\n",
            ws_tls_self ? ws_tls_self->id : -1);
  fflush(out);
}
