/*
 * mainexit — main spawns, starts a thread that makes spawning calls, and
 * leaves by pthread_exit() while that thread runs.  The thread starts a
 * second one before it ends.  POSIX ends the process as with exit(0) when
 * its last thread ends: the process must end with status 0, after both
 * threads have made all their calls and printed their lines (an atexit
 * handler checks; alarm() ends a process that does not end).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <ws/ws.h>

#define CALLS 300

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

static _Atomic long done, failures;

static void calls(const char *who) {
  for (int i = 0; i < CALLS; i++) {
    if (fib(15) != 610)
      failures++;
    done++;
  }
  printf("%s: %d calls\n", who, CALLS);
}

static void *second(void *arg) {
  (void)arg;
  calls("second");
  return NULL;
}

static void *first(void *arg) {
  (void)arg;
  calls("first");
  pthread_t t;
  if (pthread_create(&t, NULL, second, NULL) || pthread_detach(t))
    failures++;
  return NULL;
}

static void at_exit(void) {
  int ok = done == 2 * CALLS && failures == 0;
  printf("done=%ld failures=%ld %s\n", (long)done, (long)failures, ok ? "ok" : "FAIL");
  fflush(stdout);
  if (!ok)
    _exit(1);
}

int main(void) {
  alarm(60);
  if (atexit(at_exit) || fib(20) != 6765)
    return 1;
  pthread_t t;
  if (pthread_create(&t, NULL, first, NULL))
    return 1;
  pthread_exit(NULL);
}
