// A spawning function that makes no checked access keeps no hooks at all
// (docs/race.md, "How it works"): fib's result `a` travels as a value, its
// address stays in the function, and the lowering's marks on the stores of
// it at the sync (__ws_race_own) do not count as its address leaving.  They
// did before: `a` was checked after every sync, and fib(33) under -fws-race
// took 65x the serial elision's time (a strand and a call stack per call).
// RUN: %ws-clang -fws-race -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %ws-clang -fws-race -O1 %s -o %t && %t 2>&1 | FileCheck %s --check-prefix=OUT --implicit-check-not=ws-race

#include <stdio.h>
#include <ws/ws.h>

// CHECK-LABEL: define {{.*}}@fib.ws(
// CHECK-NOT: __ws_race_
// CHECK: ret i64
static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

int main(void) {
  printf("fib=%ld\n", fib(20));
  return 0;
}
// OUT: fib=6765
