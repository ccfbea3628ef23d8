/*
 * uts — Unbalanced Tree Search: count the nodes of a tree that exists only
 * as a hash function (uts_tree.h).  One task per node and no cut-off, as in
 * Lace (paper 003 §4.1): a node spawns a search of each of its children.
 */
#include <ws/ws.h>

#include "../common/bench.h"
#include "uts_tree.h"

static const uts_tree *tree;

static uts_count expand(const uts_node *node);

/* The subtree of child i of parent.  The child computes its own state, so
 * the parent's frame holds results only. */
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
  for (int i = 0; i < k; i++)
    ws_spawn(sub[i], search, node, i);
  ws_sync();
  for (int i = 0; i < k; i++)
    uts_merge(&c, sub[i]);
  return c;
}

int main(int argc, char **argv) {
  tree = uts_args(argc, argv);
  uts_grow_stack();

  uts_node root;
  uts_root(tree, &root);
  bench_clock t0 = bench_start();
  uts_count c = expand(&root);
  bench_clock t = bench_stop(t0);

  uts_verify("uts", tree, c);
  bench_time(t);
  return 0;
}
