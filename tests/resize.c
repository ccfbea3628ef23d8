/*
 * resize — ws_set_num_workers once the workers run (issue 33, item 10).
 * main spawns, so its entry point has started the runtime (WS_NUM_WORKERS
 * workers) before its first statement; the documented idiom then sets the
 * count.  After that the count moves 4 -> 1 -> 4 -> 2 -> 16 -> 3 while the
 * runtime is quiescent, and each time ws_num_workers() says the new count,
 * every task of a wide tree runs exactly once, and no task runs on a
 * worker at or beyond the count (a worker beyond it is parked).  While a
 * task is outstanding (spawned by main, or by a task, or a call handed
 * over from a thread of the program's is out) the call says EBUSY and
 * changes nothing.
 *
 * usage: resize [rounds]     (default 20)
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ws/ws.h>

#define LEAVES 4096

static _Atomic int runs[LEAVES];
static _Atomic int beyond; /* tasks that ran on a worker >= the count */
static int count_now;      /* the count the tree runs under */

static void leaf(long i) {
  runs[i]++;
  if (ws_worker_id() >= count_now)
    beyond++;
  /* Some work, so that thieves find the tree while it is there. */
  volatile long s = 0;
  for (long k = 0; k < 200; k++)
    s += k;
}

static void tree(long lo, long hi) {
  if (hi - lo == 1) {
    leaf(lo);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(tree, lo, mid);
  tree(mid, hi);
  ws_sync();
}

static long failures;
#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("failed at line %d: %s\n", __LINE__, #c);                        \
      failures++;                                                              \
    }                                                                          \
  } while (0)

/* The tree, each leaf exactly once, none beyond the count. */
static void run_tree(int count) {
  memset(runs, 0, sizeof runs);
  beyond = 0;
  count_now = count;
  tree(0, LEAVES);
  long wrong = 0;
  for (long i = 0; i < LEAVES; i++)
    wrong += runs[i] != 1;
  CHECK(wrong == 0);
#ifdef WS_FENCEFREE
  CHECK(beyond == 0);
#endif
}

static _Atomic int go;

static void wait_for_go(void) {
  while (!go)
    sched_yield();
}

/* A task that sets the count while a sibling spawned before it is
 * outstanding: not quiescent, wherever it runs. */
static void set_in_task(int *rc, int n) { *rc = ws_set_num_workers(n); }

static void outstanding(int n) {
  int rc_task = -1;
#ifdef WS_FENCEFREE
  go = 0; /* the serial elision would wait for it in the spawn */
#else
  go = 1;
#endif
  ws_spawn_void(wait_for_go);
  ws_spawn_void(set_in_task, &rc_task, n);
  int rc_main = ws_set_num_workers(n);
  go = 1;
  ws_sync();
#ifdef WS_FENCEFREE
  CHECK(rc_main == EBUSY);
  CHECK(rc_task == EBUSY);
#else
  CHECK(rc_main == 0 && rc_task == 0);
#endif
}

/* A spawning function a thread of the program's calls: with more than one
 * worker its call is handed over, and out until main lets it go. */
static _Atomic int call_started;
static void held_call(long n) {
  call_started = 1;
  ws_spawn_void(wait_for_go);
  (void)n;
  ws_sync();
}

static long negate(long x) { return -x; }

static void *caller(void *arg) {
  held_call((long)arg);
  return NULL;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 20;
  /* The idiom of docs/language.md, in a main that spawns. */
  if (ws_set_num_workers(4) != 0) {
    fprintf(stderr, "ws_set_num_workers(4) at the start of main: %s\n",
            strerror(errno));
    abort();
  }
  long warm;
  ws_spawn(warm, negate, -1L);
  ws_sync();
  CHECK(warm == 1);
#ifdef WS_FENCEFREE
  CHECK(ws_num_workers() == 4);
#endif
  static const int counts[] = {4, 1, 4, 2, 16, 3, 1, 2};
  const int ncounts = sizeof counts / sizeof counts[0];
  for (long r = 0; r < rounds; r++) {
    for (int c = 0; c < ncounts; c++) {
      int n = counts[c];
      CHECK(ws_set_num_workers(n) == 0);
#ifdef WS_FENCEFREE
      CHECK(ws_num_workers() == n);
#endif
      run_tree(ws_num_workers());
      outstanding(n == 16 ? 2 : n + 1);
#ifdef WS_FENCEFREE
      CHECK(ws_num_workers() == n); /* EBUSY changed nothing */
#endif
      CHECK(ws_set_num_workers(0) == EINVAL);
      CHECK(ws_set_num_workers(1025) == EINVAL);
      /* A call handed over from a thread of the program's, out. */
      if (ws_num_workers() > 1) {
        pthread_t t;
        go = 0;
        call_started = 0;
        if (pthread_create(&t, NULL, caller, (void *)r))
          return 1;
        while (!call_started)
          sched_yield();
        CHECK(ws_set_num_workers(n == 2 ? 3 : 2) == EBUSY);
        go = 1;
        pthread_join(t, NULL);
        CHECK(ws_num_workers() == n);
      }
    }
  }
  printf("resize: rounds=%ld workers=%d failures=%ld %s\n", rounds,
         ws_num_workers(), failures, failures ? "FAIL" : "ok");
  return failures != 0;
}
