/*
 * prodcons.c — ws-prodcons: producer/consumer throughput of the task pools
 * (paper 002 §6.3).  P producer slots each put TASKS/P tasks as fast as they
 * can; C worker slots get them until the producers are done and the pool is
 * empty (the stop rule of ws/pool.h).  One CSV row per run on stdout; runs
 * of the variants are interleaved.
 *
 *   ws-prodcons --producers P --consumers C [--tasks N] [--variants a,b,...]
 *               [--reps R]
 *
 * A consumed count below TASKS (an exactly-once variant losing work) stops
 * the program with status 1.
 */
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ws/pool.h"

#define MAX_THREADS 256

typedef struct bench {
  ws_pool *pool;
  int producers, consumers;
  long per_producer;
  _Atomic int go, producers_done;
  struct timespec start;
  struct {
    struct timespec end;
    long consumed;
  } c[MAX_THREADS];
} bench;

typedef struct arg {
  bench *b;
  int i;
} arg;

static void *producer(void *p) {
  arg *a = p;
  bench *b = a->b;
  int slot = b->consumers + a->i;
  while (!atomic_load_explicit(&b->go, memory_order_acquire))
    ;
  ws_pool_task base = (ws_pool_task)a->i * (ws_pool_task)b->per_producer;
  for (long k = 1; k <= b->per_producer; k++)
    ws_pool_put(b->pool, slot, base + (ws_pool_task)k);
  atomic_fetch_add(&b->producers_done, 1);
  return NULL;
}

static void *consumer(void *p) {
  arg *a = p;
  bench *b = a->b;
  while (!atomic_load_explicit(&b->go, memory_order_acquire))
    ;
  long consumed = 0;
  for (unsigned idle = 0;;) {
    int done = atomic_load(&b->producers_done) == b->producers;
    if (ws_pool_get(b->pool, a->i) != WS_POOL_NONE) {
      consumed++;
      idle = 0;
      continue;
    }
    if (done && ws_pool_empty(b->pool, a->i))
      break;
    if (++idle > 16)
      sched_yield(); /* more threads than cores: let a producer run */
  }
  clock_gettime(CLOCK_MONOTONIC, &b->c[a->i].end);
  b->c[a->i].consumed = consumed;
  return NULL;
}

static double since(struct timespec a, struct timespec b) {
  return (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

static long number(const char *s, long lo, long hi, const char *what) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end || v < lo || v > hi) {
    fprintf(stderr, "ws-prodcons: %s=%s: expected %ld to %ld\n", what, s, lo, hi);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  long producers = 0, consumers = 0, tasks = 4000000, reps = 5;
  char variants[512] = "salsa,salsa-cas,cl,ffcl,msq";
  static const struct option opts[] = {
      {"producers", 1, 0, 'p'}, {"consumers", 1, 0, 'c'}, {"tasks", 1, 0, 'n'},
      {"variants", 1, 0, 'v'},  {"reps", 1, 0, 'r'},      {0, 0, 0, 0}};
  for (int c; (c = getopt_long(argc, argv, "", opts, NULL)) != -1;) {
    switch (c) {
    case 'p': producers = number(optarg, 1, MAX_THREADS / 2, "--producers"); break;
    case 'c': consumers = number(optarg, 1, MAX_THREADS / 2, "--consumers"); break;
    case 'n': tasks = number(optarg, 1, 1L << 30, "--tasks"); break;
    case 'v': snprintf(variants, sizeof variants, "%s", optarg); break;
    case 'r': reps = number(optarg, 1, 1000, "--reps"); break;
    default: goto usage;
    }
  }
  if (!producers || !consumers || optind != argc) {
  usage:
    fprintf(stderr, "usage: ws-prodcons --producers P --consumers C [--tasks N] "
                    "[--variants a,b,...] [--reps R]\n");
    return 2;
  }
  long per = tasks / producers;
  size_t cap = 16; /* a producer's deque holds all it puts */
  while (cap <= (size_t)per)
    cap <<= 1;
  const char *list[32];
  int nv = 0;
  for (char *save, *v = strtok_r(variants, ",", &save); v && nv < 32;
       v = strtok_r(NULL, ",", &save))
    list[nv++] = v;

  printf("producers,consumers,variant,rep,seconds,tasks,consumed,tasks_per_s,"
         "stolen,chunk_steals\n");
  for (long rep = 1; rep <= reps; rep++)
    for (int vi = 0; vi < nv; vi++) {
      bench *b = calloc(1, sizeof *b);
      b->producers = (int)producers;
      b->consumers = (int)consumers;
      b->per_producer = per;
      b->pool = ws_pool_create(&(ws_pool_config){.variant = list[vi],
                                                 .workers = (int)consumers,
                                                 .producers = (int)producers,
                                                 .capacity = cap});
      pthread_t th[MAX_THREADS];
      arg args[MAX_THREADS];
      for (int i = 0; i < consumers; i++) {
        args[i] = (arg){b, i};
        pthread_create(&th[i], NULL, consumer, &args[i]);
      }
      for (int i = 0; i < producers; i++) {
        args[consumers + i] = (arg){b, i};
        pthread_create(&th[consumers + i], NULL, producer, &args[consumers + i]);
      }
      clock_gettime(CLOCK_MONOTONIC, &b->start);
      atomic_store_explicit(&b->go, 1, memory_order_release);
      double secs = 0;
      long consumed = 0;
      for (int i = 0; i < consumers + producers; i++)
        pthread_join(th[i], NULL);
      for (int i = 0; i < consumers; i++) {
        double s = since(b->start, b->c[i].end);
        secs = s > secs ? s : secs;
        consumed += b->c[i].consumed;
      }
      ws_pool_stats st;
      ws_pool_get_stats(b->pool, &st);
      long total = per * producers;
      if (consumed < total ||
          (consumed != total && ws_pool_exactly_once(b->pool))) {
        fprintf(stderr, "ws-prodcons: %s consumed %ld of %ld tasks\n", list[vi],
                consumed, total);
        return 1;
      }
      printf("%ld,%ld,%s,%ld,%.6f,%ld,%ld,%.0f,%llu,%llu\n", producers,
             consumers, list[vi], rep, secs, total, consumed, (double)total / secs,
             (unsigned long long)st.stolen, (unsigned long long)st.chunk_steals);
      fflush(stdout);
      ws_pool_destroy(b->pool);
      free(b);
    }
  return 0;
}
