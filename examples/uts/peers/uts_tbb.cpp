/*
 * uts with oneTBB task_group: the same search as ../uts.c, one task per
 * node and no cut-off.
 */
#include <tbb/task_group.h>

#include <vector>

#include "../../common/bench.h"
#include "../../common/tbb_threads.h"
#include "../uts_tree.h"

static const uts_tree *tree;

static uts_count expand(const uts_node *node);

static uts_count search(const uts_node *parent, int i) {
  uts_node node;
  uts_child(parent, i, &node);
  return expand(&node);
}

static uts_count expand(const uts_node *node) {
  int k = uts_num_children(tree, node);
  uts_count c = uts_count_node(node, k);
  if (k == 0)
    return c;
  // C++ has no VLA; the root of a binomial tree has thousands of children.
  uts_count small[16];
  std::vector<uts_count> big(k > 16 ? k : 0);
  uts_count *sub = k > 16 ? big.data() : small;
  tbb::task_group g;
  for (int i = 0; i < k; i++)
    g.run([=] { sub[i] = search(node, i); });
  g.wait();
  for (int i = 0; i < k; i++)
    uts_merge(&c, sub[i]);
  return c;
}

int main(int argc, char **argv) {
  tree = uts_args(argc, argv);
  uts_grow_stack();
  tbb_threads limit;

  uts_node root;
  uts_root(tree, &root);
  bench_clock t0 = bench_start();
  uts_count c = expand(&root);
  bench_clock t = bench_stop(t0);

  uts_verify("uts", tree, c);
  bench_time(t);
  return 0;
}
