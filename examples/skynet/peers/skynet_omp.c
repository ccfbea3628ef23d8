/*
 * skynet with OpenMP tasks: the same tree as ../skynet.c, nine tasks in a
 * loop and one call a node, no cut-off.
 */
#include <omp.h>

#include "../skynet_tree.h"

static long skynet(long first, long leaves) {
  if (leaves == 1)
    return first;
  long child = leaves / 10;
  long sum[10];
  for (int i = 0; i < 9; i++) {
#pragma omp task shared(sum) firstprivate(i)
    sum[i] = skynet(first + i * child, child);
  }
  sum[9] = skynet(first + 9 * child, child);
#pragma omp taskwait
  long total = 0;
  for (int i = 0; i < 10; i++)
    total += sum[i];
  return total;
}

int main(int argc, char **argv) {
  long depth;
  bench_args(argc, argv, skynet_params, 1, &depth);

  long sum;
  bench_clock t0 = bench_start();
#pragma omp parallel
#pragma omp single
  sum = skynet(0, skynet_leaves(depth));
  bench_clock t = bench_stop(t0);

  skynet_check(depth, sum);
  bench_time(t);
  return 0;
}
