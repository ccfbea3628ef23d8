/*
 * external — spawning functions called from threads the program created:
 * 8 threads at once, each checking its results (a fib, a sum reducer the
 * thread registered itself), repeated `rounds` times.  With more than one
 * worker their calls run on the workers (the spawning function sees a
 * worker id, 1..N-1, the same from its start to its end); with one they
 * run on the calling thread (-1, as outside the call).  The main thread
 * spawns before and after, so that its deque is there for thieves to try
 * while it waits in pthread_join.
 *
 * usage: external [rounds]     (default 1000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

static void leaves(ws_reducer *r, long lo, long hi) {
  if (hi - lo == 1) {
    ws_reducer_sum_long(r, lo);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(leaves, r, lo, mid);
  leaves(r, mid, hi);
  ws_sync();
}

/* The worker a call ran on: the entry point's call runs this clone. */
static int where(long n) {
  int id;
  ws_spawn(id, ws_worker_id);
  (void)n;
  ws_sync();
  return id >= 0 ? id : ws_worker_id();
}

/* ws_worker_id() in the body of the call, before and after its spawns:
 * the id, or -2 if it changed. */
static int body_id(long n) {
  int id = ws_worker_id();
  long a, b;
  ws_spawn(a, fib, n);
  b = fib(n - 1);
  ws_sync();
  (void)a;
  (void)b;
  return ws_worker_id() == id ? id : -2;
}

static long fib_serial(long n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static _Atomic long failures, calls_on_workers;

/* A thread of the program's is no worker (the serial elision's only
 * worker is 0). */
#ifdef WS_FENCEFREE
#define OUTSIDE_ID (-1)
#else
#define OUTSIDE_ID 0
#endif

static void *user(void *arg) {
  long k = (long)arg, n = 8 + k % 10, m = 50 + k % 100;
  if (ws_worker_id() != OUTSIDE_ID)
    failures++;
  if (fib(n) != fib_serial(n))
    failures++;
  long sum = 0;
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &sum);
  leaves(&r, 0, m);
  leaves(&r, 0, m);
  ws_reducer_unregister(&r);
  if (sum != m * (m - 1))
    failures++;
  if (where(k) >= 1)
    calls_on_workers++;
  int id = body_id(n), nw = ws_num_workers();
  if (nw > 1 ? id < 1 || id >= nw : id != OUTSIDE_ID)
    failures++;
  return NULL;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 1000;
  if (fib(20) != 6765)
    return 1;
  for (long i = 0; i < rounds; i++) {
    pthread_t t[8];
    for (long k = 0; k < 8; k++)
      if (pthread_create(&t[k], NULL, user, (void *)(i * 8 + k)))
        return 1;
    for (int k = 0; k < 8; k++)
      pthread_join(t[k], NULL);
  }
  if (fib(20) != 6765)
    return 1;
  /* The calls ran on the workers exactly when there are workers to run
   * them (the serial elision has one, like WS_NUM_WORKERS=1). */
  int on_workers_ok = ws_num_workers() > 1 ? calls_on_workers == rounds * 8
                                           : calls_on_workers == 0;
  int ok = failures == 0 && on_workers_ok;
  printf("rounds=%ld threads=8 failures=%ld on_workers=%s %s\n", rounds,
         (long)failures, on_workers_ok ? "ok" : "FAILED", ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
