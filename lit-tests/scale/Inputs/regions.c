/* Regions nest: outer{ tree{16 leaves} chain{4 leaves one after another} }
 * and every leaf is a region "leaf" of its own, 20 instances, some of them
 * on thieves.  tree: parallelism 16, chain: 1, outer: (16 + 4) / (1 + 4) =
 * 4, leaf: 1 (its instances' spans add up like their work). */
#include <ws/scale.h>
#include <ws/ws.h>

#include "spin.h"

static unsigned long leaf(long w) {
  ws_scale_begin("leaf");
  unsigned long r = spin(w);
  ws_scale_end("leaf");
  return r;
}

static unsigned long tree(int depth, long w) {
  if (depth == 0)
    return leaf(w);
  unsigned long a, b;
  ws_spawn(a, tree, depth - 1, w);
  b = tree(depth - 1, w);
  ws_sync();
  return a ^ b;
}

int main(int argc, char **argv) {
  long w = arg(argc, argv, 1, 20000);
  unsigned long r = 0, x;
  ws_scale_begin("outer");
  ws_scale_begin("tree");
  r ^= tree(4, w);
  ws_scale_end("tree");
  ws_scale_begin("chain");
  for (int i = 0; i < 4; i++) {
    ws_spawn(x, leaf, w);
    ws_sync();
    r ^= x;
  }
  ws_scale_end("chain");
  ws_scale_end("outer");
  analytic("tree", 16);
  analytic("chain", 1);
  analytic("outer", 4);
  analytic("leaf", 1);
  printf("nested: outer tree chain\n");
  printf("count: leaf 20\n");
  printf("count: outer 1\n");
  printf("checksum %lu\n", r & 1);
  return 0;
}
