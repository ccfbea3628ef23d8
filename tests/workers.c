/*
 * workers — ws_set_num_workers: before the runtime starts it sets the
 * count (over WS_NUM_WORKERS), a bad count is EINVAL; once a spawning
 * function or ws_num_workers has run, it changes the count while nothing
 * is outstanding (before issue 33 it said EBUSY then; tests/resize.c
 * covers EBUSY and the workers' part); a bad count is EINVAL then too, as
 * in the serial elision.
 *
 * usage: workers [count]     (default 3)
 */
#include <errno.h>
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

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3, failures = 0;
#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("failed: %s\n", #c);                                              \
      failures++;                                                              \
    }                                                                          \
  } while (0)
  CHECK(ws_set_num_workers(0) == EINVAL);
  CHECK(ws_set_num_workers(1025) == EINVAL);
  CHECK(ws_set_num_workers(n) == 0);
  CHECK(ws_set_num_workers(n) == 0); /* as often as it likes, before */
  CHECK(fib(22) == 17711);
#ifdef WS_FENCEFREE
  CHECK(ws_num_workers() == n);
  CHECK(ws_set_num_workers(n + 1) == 0);
  CHECK(ws_num_workers() == n + 1);
  CHECK(fib(22) == 17711);
  CHECK(ws_set_num_workers(n) == 0);
  CHECK(ws_num_workers() == n);
#else
  CHECK(ws_num_workers() == 1); /* the serial elision */
#endif
  int now = ws_num_workers();
  CHECK(ws_set_num_workers(0) == EINVAL);
  CHECK(ws_set_num_workers(1025) == EINVAL);
  CHECK(ws_num_workers() == now);
  printf("workers=%d %s\n", ws_num_workers(), failures ? "FAIL" : "ok");
  return failures != 0;
}
