// A spawn in a function that takes the address of its labels (computed
// goto; issue 33, item 7).  The body moves into the function's clone, so
// the label addresses must name the clone: they were left naming the entry
// point, whose blocks are gone (clang then crashed in the AsmPrinter in 5
// or 6 compiles of 10, or jumped into freed code).  Every variant at -O0
// and -O2, the default at -O1 and -O3, 1/2/4/16 workers.
// RUN: %ws-clang -fws-fencefree -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR: @pick.table = internal global [3 x ptr] [ptr blockaddress(@pick.ws, %{{[0-9a-z.]+}}), ptr blockaddress(@pick.ws, %{{[0-9a-z.]+}}), ptr blockaddress(@pick.ws,
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang -fws-fencefree -O$o %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^5820$' %t.b.* | FileCheck %s
// RUN: %clang -I%ws-include -O0 %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: 5820

#include <stdio.h>
#include <ws/ws.h>

static long sq(long x) { return x * x; }

long pick(int k) {
  static void *table[] = {&&spawn_k, &&spawn_k1, &&none};
  long a = 0, b = 0;
  goto *table[k % 3];
spawn_k:
  ws_spawn(a, sq, k);
  b = 1;
  goto out;
spawn_k1:
  ws_spawn(a, sq, k + 1);
  b = 2;
  goto out;
none:
  a = 5;
  b = 3;
out:
  ws_sync();
  return a + b;
}

int main(void) {
  long s = 0;
  for (int k = 0; k < 30; k++)
    s += pick(k);
  printf("%ld\n", s);
  return 0;
}
