/* A balanced binary tree of spawns, 2^depth leaves of equal work: work
 * 2^depth leaves, span one leaf, parallelism 2^depth (the inner nodes do
 * next to nothing). */
#include <ws/scale.h>
#include <ws/ws.h>

#include "spin.h"

static unsigned long tree(int depth, long leaf) {
  if (depth == 0)
    return spin(leaf);
  unsigned long a, b;
  ws_spawn(a, tree, depth - 1, leaf);
  b = tree(depth - 1, leaf);
  ws_sync();
  return a ^ b;
}

int main(int argc, char **argv) {
  int depth = (int)arg(argc, argv, 1, 6);
  long leaf = arg(argc, argv, 2, 20000);
  ws_scale_begin("tree");
  unsigned long r = tree(depth, leaf);
  ws_scale_end("tree");
  analytic("tree", (double)(1L << depth));
  analytic("<program>", (double)(1L << depth));
  printf("checksum %lu\n", r & 1);
  return 0;
}
