/*
 * pool_closed.c — a closed computation on a pool: worker 0 seeds tasks
 * SEEDS..2*SEEDS-1, task k puts tasks 2k and 2k+1 up to N, and every worker
 * loops on ws_pool_next.  The seeds give thieves a deep queue to steal from
 * (deeper than delta, so the fence-free thieves steal too).  Checks that every task
 * ran (exactly once for the exactly-once variants; duplicates are counted and
 * reported for the at-least-once ones), and that no worker saw termination
 * before the last task had run.
 *
 *   pool_closed VARIANT WORKERS TASKS
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "ws/pool.h"

#define SEEDS 4096

static ws_pool *pool;
static long ntasks; /* task ids SEEDS..last */
static long last;
static _Atomic unsigned *seen; /* runs per task */
static _Atomic long distinct, early;

/* A task puts its children on its first run only, as a graph traversal
 * visits a vertex once: duplicates counted are the pool's own. */
static void run(ws_pool_task k, int w) {
  if (atomic_fetch_add(&seen[k], 1) != 0)
    return;
  atomic_fetch_add(&distinct, 1);
  for (long c = 2 * (long)k; c <= 2 * (long)k + 1 && c <= last; c++)
    ws_pool_put(pool, w, (ws_pool_task)c);
}

static void *worker(void *arg) {
  int w = (int)(long)arg;
  if (w == 0)
    for (ws_pool_task k = SEEDS; k < 2 * SEEDS; k++)
      ws_pool_put(pool, 0, k);
  for (ws_pool_task t; (t = ws_pool_next(pool, w)) != WS_POOL_NONE;)
    run(t, w);
  /* Termination is only right once every task has run. */
  if (atomic_load(&distinct) != ntasks)
    atomic_fetch_add(&early, 1);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: pool_closed VARIANT WORKERS TASKS\n");
    return 2;
  }
  int workers = atoi(argv[2]);
  ntasks = atol(argv[3]);
  last = SEEDS + ntasks - 1;
  if (ntasks < 2 * SEEDS) {
    fprintf(stderr, "pool_closed: at least %d tasks\n", 2 * SEEDS);
    return 2;
  }
  pool = ws_pool_create(&(ws_pool_config){
      .variant = argv[1], .workers = workers, .capacity = 1 << 20});
  seen = calloc((size_t)last + 1, sizeof *seen);
  pthread_t th[64];
  for (long i = 0; i < workers; i++)
    pthread_create(&th[i], NULL, worker, (void *)i);
  for (int i = 0; i < workers; i++)
    pthread_join(th[i], NULL);

  long lost = 0, dup = 0, most = 0;
  for (long k = SEEDS; k <= last; k++) {
    lost += seen[k] == 0;
    dup += seen[k] > 1 ? seen[k] - 1 : 0;
    most = seen[k] > most ? seen[k] : most;
  }
  ws_pool_stats s;
  ws_pool_get_stats(pool, &s);
  printf("%s workers=%d tasks=%ld lost=%ld duplicates=%ld most=%ld early=%ld stolen=%llu "
         "aborts=%llu\n",
         argv[1], workers, ntasks, lost, dup, most, (long)early,
         (unsigned long long)s.stolen, (unsigned long long)s.aborts);
  int ok = lost == 0 && early == 0 && (dup == 0 || !ws_pool_exactly_once(pool));
  ws_pool_destroy(pool);
  free(seen);
  if (!ok)
    printf("FAIL\n");
  return ok ? 0 : 1;
}
