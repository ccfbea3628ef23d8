/*
 * pool_prodcons.c — producer slots put, worker slots get.  Producers start
 * late (after the consumers found the pool empty) and each puts TASKS/P
 * tasks.  A consumer stops by the rule of ws/pool.h: it read "producers are
 * done" before a ws_pool_get that found nothing, then saw ws_pool_empty.
 * When all have stopped, every task has come out (once for the exactly-once
 * variants).
 *
 *   pool_prodcons VARIANT PRODUCERS CONSUMERS TASKS
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ws/pool.h"

static ws_pool *pool;
static int producers, consumers;
static long per_producer;
static _Atomic unsigned *seen;
static _Atomic int producers_done;

static void *producer(void *arg) {
  int p = (int)(long)arg;
  nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
  for (long i = 1; i <= per_producer; i++)
    ws_pool_put(pool, consumers + p, (ws_pool_task)(p * per_producer + i));
  atomic_fetch_add(&producers_done, 1);
  return NULL;
}

static void *consumer(void *arg) {
  int w = (int)(long)arg;
  for (unsigned idle = 0;;) {
    int done = atomic_load(&producers_done) == producers;
    ws_pool_task t = ws_pool_get(pool, w);
    if (t != WS_POOL_NONE) {
      atomic_fetch_add_explicit(&seen[t], 1, memory_order_relaxed);
      idle = 0;
      continue;
    }
    if (done && ws_pool_empty(pool, w))
      return NULL;
    if (++idle > 16)
      sched_yield(); /* two cores: let the producers run */
  }
}

/* ws_pool_empty on its own: a queued task makes it 0, taking it makes it 1. */
static int empty_predicate(const char *variant) {
  ws_pool *p = ws_pool_create(&(ws_pool_config){
      .variant = variant, .workers = 2, .producers = 1, .capacity = 64});
  int ok = ws_pool_empty(p, 2);
  ws_pool_put(p, 2, 7);
  ok &= !ws_pool_empty(p, 0) && !ws_pool_empty(p, 2);
  ws_pool_task t = ws_pool_get(p, 1);
  ok &= t == 7 && ws_pool_empty(p, 1);
  ws_pool_destroy(p);
  if (!ok)
    printf("%s: ws_pool_empty is wrong around one task\n", variant);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: pool_prodcons VARIANT PRODUCERS CONSUMERS TASKS\n");
    return 2;
  }
  if (!empty_predicate(argv[1])) {
    printf("FAIL\n");
    return 1;
  }
  producers = atoi(argv[2]);
  consumers = atoi(argv[3]);
  per_producer = atol(argv[4]) / producers;
  long total = per_producer * producers;
  pool = ws_pool_create(&(ws_pool_config){.variant = argv[1],
                                          .workers = consumers,
                                          .producers = producers,
                                          .capacity = 1 << 20});
  seen = calloc((size_t)total + 1, sizeof *seen);
  pthread_t th[64];
  for (long i = 0; i < consumers; i++)
    pthread_create(&th[i], NULL, consumer, (void *)i);
  for (long i = 0; i < producers; i++)
    pthread_create(&th[consumers + i], NULL, producer, (void *)i);
  for (int i = 0; i < consumers + producers; i++)
    pthread_join(th[i], NULL);
  long lost = 0, dup = 0, most = 0;
  for (long t = 1; t <= total; t++) {
    lost += seen[t] == 0;
    dup += seen[t] > 1 ? seen[t] - 1 : 0;
    most = seen[t] > most ? seen[t] : most;
  }
  printf("%s producers=%d consumers=%d tasks=%ld lost=%ld duplicates=%ld most=%ld\n",
         argv[1], producers, consumers, total, lost, dup, most);
  int ok = !lost && (!dup || !ws_pool_exactly_once(pool));
  ws_pool_destroy(pool);
  free(seen);
  if (!ok)
    printf("FAIL\n");
  return !ok;
}
