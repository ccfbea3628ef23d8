/*
 * skynet with oneTBB task_group: the same tree as ../skynet.c, nine tasks
 * in a loop and one call a node, no cut-off.  TBB_NUM_THREADS sets the
 * threads (see ../../common/tbb_threads.h).
 */
#include <tbb/task_group.h>

#include "../skynet_tree.h"
#include "../../common/tbb_threads.h"

static long skynet(long first, long leaves) {
  if (leaves == 1)
    return first;
  long child = leaves / 10;
  long sum[10];
  tbb::task_group g;
  for (int i = 0; i < 9; i++)
    g.run([&sum, i, first, child] { sum[i] = skynet(first + i * child, child); });
  sum[9] = skynet(first + 9 * child, child);
  g.wait();
  long total = 0;
  for (int i = 0; i < 10; i++)
    total += sum[i];
  return total;
}

int main(int argc, char **argv) {
  long depth;
  bench_args(argc, argv, skynet_params, 1, &depth);
  tbb_threads limit;

  bench_clock t0 = bench_start();
  long sum = skynet(0, skynet_leaves(depth));
  bench_clock t = bench_stop(t0);

  skynet_check(depth, sum);
  bench_time(t);
  return 0;
}
