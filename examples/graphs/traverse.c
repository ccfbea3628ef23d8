/* traverse.c — the parallel visits, one pool worker per thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "traverse.h"

#define MAX_THREADS 256

typedef struct run {
  const graph *g;
  algo a;
  ws_pool *pool;
  int root;
  _Atomic unsigned char *mark;
  int *parent;
  _Atomic int go;
  struct timespec start;
  struct {
    struct timespec end;
    long tasks;
  } w[MAX_THREADS];
} run;

typedef struct arg {
  run *r;
  int w;
} arg;

static double since(struct timespec a, struct timespec b) {
  return (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

/* Transitive closure: an unsynchronised test and set, as in the original;
 * two workers may both see v unmarked and both put it, which only repeats a
 * visit. */
static void visit_tc(run *r, int w, int u) {
  const graph *g = r->g;
  for (int64_t e = g->off[u]; e < g->off[u + 1]; e++) {
    int v = g->adj[e];
    if (!atomic_load_explicit(&r->mark[v], memory_order_relaxed)) {
      atomic_store_explicit(&r->mark[v], 1, memory_order_relaxed);
      ws_pool_put(r->pool, w, (ws_pool_task)v + 1);
    }
  }
}

/* Spanning tree: the first visitor of v becomes its parent.  A CAS decides
 * who is first: with plain stores, two workers whose colour stores still sit
 * in their store buffers could each adopt the other's vertex and close a
 * cycle. */
static void visit_st(run *r, int w, int u) {
  const graph *g = r->g;
  for (int64_t e = g->off[u]; e < g->off[u + 1]; e++) {
    int v = g->adj[e];
    unsigned char zero = 0;
    if (!atomic_load_explicit(&r->mark[v], memory_order_relaxed) &&
        atomic_compare_exchange_strong(&r->mark[v], &zero, 1)) {
      r->parent[v] = u;
      ws_pool_put(r->pool, w, (ws_pool_task)v + 1);
    }
  }
}

static void *worker(void *p) {
  arg *a = p;
  run *r = a->r;
  int w = a->w;
  while (!atomic_load_explicit(&r->go, memory_order_acquire))
    ;
  if (w == 0) {
    atomic_store(&r->mark[r->root], 1);
    r->parent[r->root] = r->root;
    ws_pool_put(r->pool, 0, (ws_pool_task)r->root + 1);
  }
  long tasks = 0;
  for (ws_pool_task t; (t = ws_pool_next(r->pool, w)) != WS_POOL_NONE; tasks++)
    (r->a == ALGO_TC ? visit_tc : visit_st)(r, w, (int)(t - 1));
  clock_gettime(CLOCK_MONOTONIC, &r->w[w].end);
  r->w[w].tasks = tasks;
  return NULL;
}

run_result traverse(const graph *g, algo a, const char *variant, int threads,
                    int root, _Atomic unsigned char *mark, int *parent) {
  /* Every vertex may sit in one queue at once, and a few are put twice;
   * 2^21 is idem-fifo's limit and enough for the inputs of run.py. */
  size_t cap = 1;
  while (cap < 2 * (size_t)g->n && cap < (1u << 21))
    cap <<= 1;
  run *r = calloc(1, sizeof *r);
  arg args[MAX_THREADS];
  pthread_t th[MAX_THREADS];
  if (!r || threads < 1 || threads > MAX_THREADS) {
    fprintf(stderr, "ws-graphs: 1 to %d threads, and memory for them\n", MAX_THREADS);
    exit(2);
  }
  r->g = g;
  r->a = a;
  r->root = root;
  r->mark = mark;
  r->parent = parent;
  r->pool = ws_pool_create(&(ws_pool_config){
      .variant = variant, .workers = threads, .capacity = cap});
  for (int v = 0; v < g->n; v++)
    atomic_store_explicit(&mark[v], 0, memory_order_relaxed);
  for (int i = 0; i < threads; i++) {
    args[i] = (arg){r, i};
    pthread_create(&th[i], NULL, worker, &args[i]);
  }
  clock_gettime(CLOCK_MONOTONIC, &r->start);
  atomic_store_explicit(&r->go, 1, memory_order_release);
  run_result res = {0};
  for (int i = 0; i < threads; i++) {
    pthread_join(th[i], NULL);
    double s = since(r->start, r->w[i].end);
    res.seconds = s > res.seconds ? s : res.seconds;
    res.tasks += r->w[i].tasks;
  }
  ws_pool_get_stats(r->pool, &res.stats);
  ws_pool_destroy(r->pool);
  free(r);
  return res;
}

const char *verify(const graph *g, algo a, int root, const unsigned char *reach,
                   _Atomic unsigned char *mark, const int *parent) {
  for (int v = 0; v < g->n; v++)
    if (reach[v] != atomic_load(&mark[v]))
      return reach[v] ? "a reachable vertex was not visited"
                      : "an unreachable vertex was visited";
  if (a == ALGO_TC)
    return NULL;
  /* Every parent is a neighbour, and walking up ends at the root: depth[v]
   * is filled along each walk; -2 marks a walk in progress (a cycle). */
  int *depth = malloc(sizeof(int) * (size_t)g->n), *path = malloc(sizeof(int) * (size_t)g->n);
  const char *err = NULL;
  for (int v = 0; v < g->n; v++)
    depth[v] = v == root ? 0 : -1;
  for (int v = 0; v < g->n && !err; v++) {
    if (!reach[v] || v == root)
      continue;
    int p = parent[v], edge = 0;
    for (int64_t e = g->off[p]; e < g->off[p + 1] && !edge; e++)
      edge = g->adj[e] == v;
    if (!edge) {
      err = "a parent is not a neighbour";
      break;
    }
    int len = 0, x = v;
    while (depth[x] == -1) {
      depth[x] = -2;
      path[len++] = x;
      x = parent[x];
    }
    if (depth[x] == -2) {
      err = "the parent links have a cycle";
      break;
    }
    for (int d = depth[x] + 1; len > 0; d++)
      depth[path[--len]] = d;
  }
  free(depth);
  free(path);
  return err;
}
