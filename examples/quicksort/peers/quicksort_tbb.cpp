/*
 * quicksort with oneTBB task_group: the same recursion as ../quicksort.c.
 */
#include <tbb/task_group.h>

#include "../../common/tbb_threads.h"
#include "../quicksort_kernel.h"

static void quicksort(long *a, long n) {
  if (n <= QUICKSORT_CUTOFF) {
    qs_serial(a, n);
    return;
  }
  long p = qs_partition(a, n);
  tbb::task_group g;
  g.run([=] { quicksort(a, p); });
  quicksort(a + p, n - p);
  g.wait();
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 10000000, 100000000, 1, 1L << 32}};
  long n;
  bench_args(argc, argv, params, 1, &n);
  tbb_threads limit;

  long *a = qs_input(n);
  unsigned long long h = qs_hash(a, n);
  bench_clock t0 = bench_start();
  quicksort(a, n);
  bench_clock t = bench_stop(t0);

  printf("quicksort(%ld)\n", n);
  if (!qs_check(a, n, h))
    bench_fail("quicksort", "the output is not the input sorted");
  bench_time(t);
  free(a);
  return 0;
}
