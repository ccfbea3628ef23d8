/*
 * fib — recursive Fibonacci, one spawn per call and no cut-off: the
 * finest-grained program of the suite, so its T1/T_S is the cost of a spawn
 * and a sync (paper 000 Table 1, paper 003 §4.1).
 */
#include <ws/ws.h>

#include "../common/bench.h"

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

static long fib_iterative(long n) {
  long a = 0, b = 1;
  for (long i = 0; i < n; i++) {
    long t = a + b;
    a = b;
    b = t;
  }
  return a;
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 42, 42, 0, 80}};
  long n;
  bench_args(argc, argv, params, 1, &n);

  bench_clock t0 = bench_start();
  long r = fib(n);
  bench_clock t = bench_stop(t0);

  printf("fib(%ld) = %ld\n", n, r);
  if (r != fib_iterative(n))
    bench_fail("fib", "fib(%ld) = %ld, expected %ld", n, r, fib_iterative(n));
  bench_time(t);
  return 0;
}
