/*
 * cancel — pthread_cancel of threads whose calls of spawning functions are
 * in flight.  Each round starts a thread that calls a spawning function
 * over and over, the call writing its results into the thread's stack,
 * cancels the thread at a random moment and joins it.  The cancellation
 * must act only between calls (a cleanup handler sees every call that
 * began ended), and calls from the main thread and from later threads go
 * on.  Deferred cancellation at every worker count; asynchronous too
 * where calls are handed to the workers (more than one worker: with one,
 * the thread runs its calls itself, and POSIX allows no call of a
 * function that is not async-cancel-safe under it).  A hang is a failure:
 * alarm() ends it.
 *
 * usage: cancel [rounds]     (default 200)
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
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

static long fib_serial(long n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static _Atomic long begun, ended, failures, calls;
static _Atomic int running;

/* The call: out[i] = fib(n - i), spawned, into the caller's stack. */
static void fill(long *out, long n) {
  begun++;
  for (int i = 0; i < 4; i++)
    ws_spawn(out[i], fib, n - i);
  ws_sync();
  ended++;
}

static void on_cancel(void *arg) {
  (void)arg;
  if (begun != ended)
    failures++; /* cancelled in the middle of a call */
}

static void *victim(void *arg) {
  pthread_cleanup_push(on_cancel, NULL);
  if (arg)
    pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
  running = 1;
  for (;;) {
    long out[4] = {-1, -1, -1, -1};
    fill(out, 16);
    if (out[0] != 987 || out[1] != 610 || out[2] != 377 || out[3] != 233)
      failures++;
    calls++;
    pthread_testcancel();
  }
  pthread_cleanup_pop(0);
  return NULL;
}

static void *one_call(void *arg) {
  long out[4];
  fill(out, 12);
  *(long *)arg = out[0] + out[1] + out[2] + out[3];
  return NULL;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 200;
  alarm(60);
  int async_ok = ws_num_workers() > 1;
  srand(7);
  for (long r = 0; r < rounds; r++) {
    pthread_t t;
    running = 0;
    if (pthread_create(&t, NULL, victim, async_ok && r % 2 ? (void *)1 : NULL))
      return 1;
    while (!running)
      sched_yield();
    struct timespec ts = {0, (rand() % 500) * 1000L};
    nanosleep(&ts, NULL);
    pthread_cancel(t);
    void *res;
    pthread_join(t, &res);
    if (res != PTHREAD_CANCELED)
      failures++;
    if (fib(15) != 610)
      failures++;
  }
  /* A thread that is not cancelled: its call still runs. */
  pthread_t t;
  long sum = 0;
  if (pthread_create(&t, NULL, one_call, &sum))
    return 1;
  pthread_join(t, NULL);
  if (sum != fib_serial(12) + fib_serial(11) + fib_serial(10) + fib_serial(9))
    failures++;
  if (begun != ended)
    failures++;
  printf("rounds=%ld calls=%ld failures=%ld %s\n", rounds, (long)calls,
         (long)failures, failures ? "FAIL" : "ok");
  return failures != 0;
}
