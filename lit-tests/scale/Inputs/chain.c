/* Serial chains: parallelism 1.  A loop that spawns one leaf and syncs at
 * once, and a recursion whose every level spawns the next and waits for it
 * before its own leaf. */
#include <ws/scale.h>
#include <ws/ws.h>

#include "spin.h"

static unsigned long chain(int n, long leaf) {
  if (n == 0)
    return 0;
  unsigned long r;
  ws_spawn(r, chain, n - 1, leaf);
  ws_sync();
  return r ^ spin(leaf);
}

int main(int argc, char **argv) {
  int n = (int)arg(argc, argv, 1, 16);
  long leaf = arg(argc, argv, 2, 20000);
  unsigned long r = 0, x;
  ws_scale_begin("loop");
  for (int i = 0; i < n; i++) {
    ws_spawn(x, spin, leaf);
    ws_sync();
    r ^= x;
  }
  ws_scale_end("loop");
  ws_scale_begin("recursion");
  r ^= chain(n, leaf);
  ws_scale_end("recursion");
  analytic("loop", 1);
  analytic("recursion", 1);
  analytic("<program>", 1);
  printf("checksum %lu\n", r & 1);
  return 0;
}
