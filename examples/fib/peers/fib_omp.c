/*
 * fib with OpenMP tasks: the peer a C programmer would pick.  Same
 * recursion as ../fib.c, one task per call and no cut-off.  Built with
 * clang-19/libomp and with gcc/libgomp; OMP_NUM_THREADS sets the threads.
 */
#include <omp.h>

#include "../../common/bench.h"

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
#pragma omp task shared(a)
  a = fib(n - 1);
  b = fib(n - 2);
#pragma omp taskwait
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

  long r;
  bench_clock t0 = bench_start();
#pragma omp parallel
#pragma omp single
  r = fib(n);
  bench_clock t = bench_stop(t0);

  printf("fib(%ld) = %ld\n", n, r);
  if (r != fib_iterative(n))
    bench_fail("fib", "fib(%ld) = %ld, expected %ld", n, r, fib_iterative(n));
  bench_time(t);
  return 0;
}
