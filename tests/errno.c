/*
 * errno — a spawning call keeps errno as the serial elision does (issue
 * 33, item 12): the runtime's own system calls (the hand-over's futex and
 * locks, the start of the workers, the binding of a deque) leave the
 * caller's errno alone, and a call handed over from a thread of the
 * program's starts with the caller's errno and gives back the errno its
 * own code left.  8 threads at once, `calls` calls each, and the main
 * thread around its first spawning call.
 *
 * usage: errno [calls]     (default 2000)
 */
#include <errno.h>
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

/* Never touches errno. */
static long quiet(long n) {
  long a, b;
  ws_spawn(a, fib, n);
  b = fib(n - 1);
  ws_sync();
  return a + b;
}

/* Reads the errno it starts with (the caller's, as in a plain call), and
 * leaves one of its own for the caller, after its spawns. */
static long sets(long n, int expect, int leave) {
  long seen = errno == expect;
  long a, b;
  ws_spawn(a, fib, n);
  b = fib(n - 1);
  ws_sync();
  errno = leave;
  return seen && a + b == fib(n + 1) ? 1 : 0;
}

static _Atomic long changed, not_seen, not_back, wrong;
static long calls = 2000;

static void *user(void *arg) {
  long k = (long)arg;
  for (long i = 0; i < calls; i++) {
    int mine = (int)(1000 + k * 100 + i % 50);
    errno = mine;
    if (quiet(8) != fib(9))
      wrong++;
    if (errno != mine)
      changed++;
    errno = mine;
    int leave = mine + 7;
    if (!sets(8, mine, leave))
      not_seen++;
    if (errno != leave)
      not_back++;
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1)
    calls = atol(argv[1]);
  /* The first spawning call starts the runtime (threads, stacks, a deque). */
  errno = 4242;
  if (quiet(10) != fib(11))
    wrong++;
  int main_kept = errno == 4242;
  pthread_t t[8];
  for (long k = 0; k < 8; k++)
    if (pthread_create(&t[k], NULL, user, (void *)k))
      return 1;
  for (int k = 0; k < 8; k++)
    pthread_join(t[k], NULL);
  int ok = main_kept && !changed && !not_seen && !not_back && !wrong;
  printf("errno: threads=8 calls=%ld main=%s changed=%ld not_seen=%ld "
         "not_back=%ld wrong=%ld %s\n",
         calls, main_kept ? "kept" : "CHANGED", (long)changed, (long)not_seen,
         (long)not_back, (long)wrong, ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
