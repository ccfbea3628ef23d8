// The end of a variable-length array's scope forgets only the stack below
// the function's stack pointer: a local of the function that the
// continuation wrote before the array's scope, and that the task writes
// at the sync, still races (issue 34, item 3, the other side).
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 > %t.O0.out 2>&1 || echo "exit status $?" >> %t.O0.out
// RUN: %t.O2 > %t.O2.out 2>&1 || echo "exit status $?" >> %t.O2.out
// RUN: FileCheck %s < %t.O0.out
// RUN: FileCheck %s < %t.O2.out

#include <stdio.h>
#include <ws/ws.h>

static __attribute__((noinline)) void fill(long *a, long n) {
  for (long i = 0; i < n; i++)
    a[i] = i;
}
static void set(long *p) { *p = 1; } // CHECK: #0 set {{.*}}vla-race.c:[[@LINE]]:

static long run(long n) {
  long x = 0;
  ws_spawn_void(set, &x);
  x = 2; // CHECK: #0 run {{.*}}vla-race.c:[[@LINE]]:
  {
    long vla[n];
    fill(vla, n);
  }
  ws_sync();
  return x;
}

int main(int argc, char **argv) {
  (void)argv;
  printf("x=%ld\n", run(1000 + argc));
  return 0;
}
// CHECK: x=1
// CHECK-NEXT: ws-race: 1 determinacy race found in this run
// CHECK-NEXT: exit status 66
