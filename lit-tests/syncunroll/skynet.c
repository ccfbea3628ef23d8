// End to end: ws-lower marks the loop of skynet's sync, and once the
// optimizer has unrolled the nine spawns, ws-sync-unroll has the sync's
// loop unrolled too: nine takes in line, no loop back to the sync.  Twenty
// spawns keep their sync loop.  Both compute the right sums on 1 and 2
// workers.  The leaf here reads a volatile, so the spawns have no leaf
// test in front of them (LeafSpawn.h; lit/leafspawn/skynet.c has the
// plain leaf, whose spawns may not run, and so whose sync stays a loop).
// RUN: %ws-clang -fws-fencefree -O2 -S -emit-llvm -DCHILDREN=10 %s -o - | FileCheck %s --check-prefix=TEN
// RUN: %ws-clang -fws-fencefree -O2 -S -emit-llvm -DCHILDREN=21 %s -o - | FileCheck %s --check-prefix=TWENTYONE
// RUN: %ws-clang -fws-fencefree -O2 -DCHILDREN=10 %s -o %t.10
// Under -fws-scale too, and never a "loop not unrolled" warning.
// RUN: %ws-clang -fws-fencefree -fws-scale -O2 -Werror -S -emit-llvm -DCHILDREN=10 %s -o - | FileCheck %s --check-prefix=TEN
// RUN: %ws-clang -fws-fencefree=the -fws-mfence -O1 -Werror -c -DCHILDREN=10 %s -o %t.o
// RUN: %ws-clang -fws-fencefree -O2 -DCHILDREN=21 %s -o %t.21
// RUN: %ws-run --workers 1,2 %t.10 %t.21 | FileCheck %s --check-prefix=OUT
#include <stdio.h>
#include <ws/ws.h>

static volatile long zero;

static long tree(long first, long leaves) {
  if (leaves == 1)
    return first + zero;
  long child = leaves / CHILDREN;
  long sum[CHILDREN];
  for (int i = 0; i < CHILDREN - 1; i++)
    ws_spawn(sum[i], tree, first + i * child, child);
  sum[CHILDREN - 1] = tree(first + (CHILDREN - 1) * child, child);
  ws_sync();
  long total = 0;
  for (int i = 0; i < CHILDREN; i++)
    total += sum[i];
  return total;
}

int main(void) {
  long leaves = CHILDREN * CHILDREN * CHILDREN;
  long sum = tree(0, leaves);
  printf("%s\n", sum == leaves * (leaves - 1) / 2 ? "sum ok" : "WRONG");
  return 0;
}

// TEN-LABEL: define internal {{.*}}@tree.ws{{.*}}(
// TEN-COUNT-9: asm sideeffect "# ws.take"
// TEN-NOT: asm sideeffect "# ws.take"
// TEN-NOT: llvm.loop.unroll.full
// TWENTYONE-LABEL: define internal {{.*}}@tree.ws{{.*}}(
// TWENTYONE-COUNT-1: asm sideeffect "# ws.take"
// TWENTYONE-NOT: asm sideeffect "# ws.take"
// TWENTYONE: !{!"ws.sync.loop"}
// OUT-COUNT-4: workers={{[12]}}: sum ok
