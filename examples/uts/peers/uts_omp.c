/*
 * uts with OpenMP tasks: the same search as ../uts.c, one task per node and
 * no cut-off.  Tasks stolen deep in T3L recurse thousands of levels on a
 * worker's stack, so that tree needs OMP_STACKSIZE (the harness sets 64M).
 */
#include <omp.h>

#include "../../common/bench.h"
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
  uts_count sub[k];
  for (int i = 0; i < k; i++) {
#pragma omp task shared(sub) firstprivate(i)
    sub[i] = search(node, i);
  }
#pragma omp taskwait
  for (int i = 0; i < k; i++)
    uts_merge(&c, sub[i]);
  return c;
}

int main(int argc, char **argv) {
  tree = uts_args(argc, argv);
  if (tree->depth > 10000 && !getenv("OMP_STACKSIZE")) {
    fprintf(stderr, "%s: tree %s is %ld levels deep: set OMP_STACKSIZE=64M\n",
            argv[0], tree->name, tree->depth);
    return 2;
  }
  uts_grow_stack();

  uts_node root;
  uts_root(tree, &root);
  uts_count c;
  bench_clock t0 = bench_start();
#pragma omp parallel
#pragma omp single
  c = expand(&root);
  bench_clock t = bench_stop(t0);

  uts_verify("uts", tree, c);
  bench_time(t);
  return 0;
}
