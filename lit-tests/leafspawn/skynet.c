// End to end (LeafSpawn.h): skynet's spawns of leaves store the leaf's
// value at the spawn and push nothing; the rest are pushed.  Right sums on
// 1 and 2 workers at -O1, -O2, -O0 (no leaf test) and under -fws-race (no
// leaf test); with the stats option every spawn is counted, leaf or not
// (tree: 1 + 10 + 100 nodes above the leaves, nine spawns each, 999;
// narrow: 1 + 10 nodes, ten spawns each, 110).  A spawn
// whose value is converted before its store keeps its push.
// RUN: %ws-clang -fws-fencefree -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: FileCheck %s --check-prefix=NONE < %t.ll
// RUN: %ws-clang -fws-fencefree -O2 %s -o %t.O2
// Turned off: every spawn is pushed, and the sync's loop is unrolled.
// RUN: %ws-clang -fws-fencefree -fplugin-arg-wsff-leaf-spawns=0 -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// RUN: %ws-clang -fws-fencefree -O1 %s -o %t.O1
// RUN: %ws-clang -fws-fencefree -O0 %s -o %t.O0
// RUN: %ws-clang -fws-fencefree -fws-race -O1 %s -o %t.race
// RUN: %ws-run --workers 1,2 %t.O2 %t.O1 %t.O0 %t.race | FileCheck %s --check-prefix=OUT
// RUN: %ws-clang -fws-fencefree -fplugin-arg-wsff-stats=1 -O2 %s -o %t.stats
// RUN: env WS_STATS=1 WS_NUM_WORKERS=1 %t.stats 2>&1 | FileCheck %s --check-prefix=STATS
#include <stdio.h>
#include <ws/ws.h>

static long tree(long first, long leaves) {
  if (leaves == 1)
    return first;
  long child = leaves / 10;
  long sum[10];
  for (int i = 0; i < 9; i++)
    ws_spawn(sum[i], tree, first + i * child, child);
  sum[9] = tree(first + 9 * child, child);
  ws_sync();
  long total = 0;
  for (int i = 0; i < 10; i++)
    total += sum[i];
  return total;
}

// Its value is widened to long between the call and the store.
static int narrow(int first, int leaves) {
  if (leaves == 1)
    return first;
  int child = leaves / 10;
  long sum[10];
  for (int i = 0; i < 10; i++)
    ws_spawn(sum[i], narrow, first + i * child, child);
  ws_sync();
  long total = 0;
  for (int i = 0; i < 10; i++)
    total += sum[i];
  return (int)total;
}

int main(void) {
  long leaves = 1000;
  long sum = tree(0, leaves);
  int small = narrow(0, 100);
  printf("%s %s\n", sum == leaves * (leaves - 1) / 2 ? "sum ok" : "WRONG",
         small == 4950 ? "narrow ok" : "WRONG");
  return 0;
}

// IR-LABEL: define internal {{.*}}@tree.ws.body(
// IR-COUNT-1: asm sideeffect "# ws.take"
// IR-NOT: asm sideeffect "# ws.take"
// NONE-NOT: __ws_leaf
// OFF-LABEL: define internal {{.*}}@tree.ws{{.*}}(
// OFF-COUNT-9: asm sideeffect "# ws.take"
// OFF-NOT: __ws_leaf
// OUT-COUNT-8: workers={{[12]}}: sum ok narrow ok
// STATS-DAG: sum ok narrow ok
// STATS-DAG: ws: variant=ffmb workers=1 {{.*}} spawns=1109 {{.*}}
