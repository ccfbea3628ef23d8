/*
 * lifecycle — spawning code before the runtime configured itself and
 * after it shut down (issue 33): in a start-up constructor that runs
 * before libws's own, and in a destructor and an atexit handler
 * registered before the runtime's, both of which run after it stopped the
 * workers.  Before, each stopped the program with a "ws:" line.  Each
 * checks its results and the errno it kept; main checks that the workers
 * it then gets are the WS_NUM_WORKERS of the environment.  The last one
 * to run prints the verdict; a failure exits with status 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

static int failures, stages;

static void check(int ok, const char *what) {
  stages++;
  if (!ok) {
    printf("failed: %s\n", what);
    failures++;
  }
}

static void verdict(const char *last) {
  printf("lifecycle: %d stages, last %s, %s\n", stages, last,
         failures ? "FAIL" : "ok");
  fflush(stdout);
  if (failures)
    _exit(1);
}

/* Registered before the runtime's atexit handler: runs after it. */
static void at_exit(void) {
  errno = 55;
  check(fib(20) == 6765, "fib(20) in an atexit handler after the shutdown");
  check(errno == 55, "errno in the atexit handler");
}

/* Priority 100, below libws's 101 (the link puts libws's first among
 * constructors of equal priority): the runtime has not configured itself
 * when this runs (0..100 are the implementation's; clang does not
 * complain of them). */
__attribute__((constructor(100))) static void early(void) {
  if (atexit(at_exit)) /* before anything of the runtime's */
    _exit(3);
  errno = 44;
  check(fib(20) == 6765, "fib(20) in a constructor before libws's");
  check(errno == 44, "errno in the early constructor");
}

__attribute__((destructor)) static void late(void) {
  check(fib(21) == 10946, "fib(21) in a destructor");
  verdict("destructor");
}

int main(void) {
  check(fib(25) == 75025, "fib(25) in main");
#ifdef WS_FENCEFREE
  const char *env = getenv("WS_NUM_WORKERS");
  if (env)
    check(ws_num_workers() == atoi(env), "WS_NUM_WORKERS workers in main");
#endif
  printf("main: fib(25) = 75025 on %d workers\n", ws_num_workers());
  return 0;
}
