/*
 * pool_late.c — termination with work that arrives late.  Workers
 * 0..W-2 run a few tasks and wait in ws_pool_next; worker W-1 first sleeps,
 * then puts most of the tasks, then joins.  No ws_pool_next may return
 * WS_POOL_NONE before every task has run, and every task runs (once for the
 * exactly-once variants).
 *
 *   pool_late VARIANT WORKERS
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ws/pool.h"

#define EARLY 100
#define LATE 100000

static ws_pool *pool;
static int workers;
static _Atomic unsigned seen[EARLY + LATE + 1];
static _Atomic long distinct, early_end;

static void *worker(void *arg) {
  int w = (int)(long)arg;
  if (w == 0)
    for (ws_pool_task t = 1; t <= EARLY; t++)
      ws_pool_put(pool, 0, t);
  if (w == workers - 1) {
    /* Not a timed check: the sleep only lets the others go idle first. */
    nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    for (ws_pool_task t = EARLY + 1; t <= EARLY + LATE; t++)
      ws_pool_put(pool, w, t);
  }
  for (ws_pool_task t; (t = ws_pool_next(pool, w)) != WS_POOL_NONE;)
    if (atomic_fetch_add(&seen[t], 1) == 0)
      atomic_fetch_add(&distinct, 1);
  if (atomic_load(&distinct) != EARLY + LATE)
    atomic_fetch_add(&early_end, 1);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: pool_late VARIANT WORKERS\n");
    return 2;
  }
  workers = atoi(argv[2]);
  pool = ws_pool_create(&(ws_pool_config){
      .variant = argv[1], .workers = workers, .capacity = 1 << 18});
  pthread_t th[64];
  for (long i = 0; i < workers; i++)
    pthread_create(&th[i], NULL, worker, (void *)i);
  for (int i = 0; i < workers; i++)
    pthread_join(th[i], NULL);
  long lost = 0, dup = 0, most = 0;
  for (int t = 1; t <= EARLY + LATE; t++) {
    lost += seen[t] == 0;
    dup += seen[t] > 1 ? seen[t] - 1 : 0;
    most = seen[t] > most ? seen[t] : most;
  }
  printf("%s workers=%d lost=%ld duplicates=%ld most=%ld early_end=%ld\n", argv[1],
         workers, lost, dup, most, (long)early_end);
  int ok = !lost && !early_end && (!dup || !ws_pool_exactly_once(pool));
  ws_pool_destroy(pool);
  if (!ok)
    printf("FAIL\n");
  return !ok;
}
