/*
 * skynet — a tree of 10^depth leaf tasks, ten children a node: a node above
 * the leaves spawns nine children in a loop, calls the tenth and sums their
 * results; leaf i returns i.  No cut-off: 1.1 x 10^8 tasks at depth 8, so
 * T1/T_S is the cost of a spawn made in a loop (fib's spawn is in
 * straight-line code).  The shape is atemerev/skynet's (one actor or
 * goroutine a node, 10^6 leaves there) as tzcnt/runtime-benchmarks runs it
 * for fork-join runtimes (depth 8, nine spawns and one call a node).
 */
#include <ws/ws.h>

#include "skynet_tree.h"

/* The sum of the leaves first .. first + leaves - 1 (leaves: a power of 10). */
static long skynet(long first, long leaves) {
  if (leaves == 1)
    return first;
  long child = leaves / 10;
  long sum[10];
  for (int i = 0; i < 9; i++)
    ws_spawn(sum[i], skynet, first + i * child, child);
  sum[9] = skynet(first + 9 * child, child);
  ws_sync();
  long total = 0;
  for (int i = 0; i < 10; i++)
    total += sum[i];
  return total;
}

int main(int argc, char **argv) {
  long depth;
  bench_args(argc, argv, skynet_params, 1, &depth);

  bench_clock t0 = bench_start();
  long sum = skynet(0, skynet_leaves(depth));
  bench_clock t = bench_stop(t0);

  skynet_check(depth, sum);
  bench_time(t);
  return 0;
}
