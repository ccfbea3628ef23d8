// End to end: ws-lower marks the array nine spawns in a loop store their
// results to, the vectorizers sum it after the sync, and ws-result-loads
// reads it 8 bytes at a time (no 16-byte load of it is left) into the
// vectorized sum, which stays.
// RUN: %ws-clang -fws-fencefree -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %ws-clang -fws-fencefree -O2 -S %s -o - | FileCheck %s --check-prefix=ASM
// RUN: %ws-clang -fws-fencefree -O2 %s -o %t && %ws-run --workers 1,2 %t | FileCheck %s --check-prefix=OUT
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

int main(void) {
  printf("%ld\n", tree(0, 100000));
  return 0;
}

// CHECK: alloca [10 x i64]{{.*}}!ws.result
// CHECK-NOT: load <{{[0-9]+}} x i64>
// CHECK: load atomic i64, ptr %{{.*}} unordered
// CHECK-NOT: load <{{[0-9]+}} x i64>
// CHECK: {{add <[0-9]+ x i64>|vector.reduce.add}}
// ASM-LABEL: tree.ws:
// ASM-NOT: {{movdq[au]|paddq}} {{.*}}(%rsp)
// ASM: .cfi_endproc
// OUT: workers=1: 4999950000
// OUT: workers=2: 4999950000
