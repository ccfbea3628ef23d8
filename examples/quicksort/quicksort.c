/*
 * quicksort — sort n random longs: partition serially, sort the two sides
 * in parallel, serial sort below QUICKSORT_CUTOFF elements (paper 000
 * Table 1; the cut-off is the Cilk version's).
 */
#include <ws/ws.h>

#include "quicksort_kernel.h"

static void quicksort(long *a, long n) {
  if (n <= QUICKSORT_CUTOFF) {
    qs_serial(a, n);
    return;
  }
  long p = qs_partition(a, n);
  ws_spawn_void(quicksort, a, p);
  quicksort(a + p, n - p);
  ws_sync();
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 10000000, 100000000, 1, 1L << 32}};
  long n;
  bench_args(argc, argv, params, 1, &n);

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
