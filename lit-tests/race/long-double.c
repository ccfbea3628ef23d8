// Accesses of sizes other than 1, 2, 4, 8 and 16 bytes: an x87 long double
// (10 bytes, on x86-64) written by a task and by its parent's continuation,
// and a 24-byte vector store (issue 34, item 6).  ThreadSanitizer's pass
// ignored them (exit 0).  -O0 and -O2.
// REQUIRES: x86_64
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 > %t.O0.out 2>&1 || echo "exit status $?" >> %t.O0.out
// RUN: %t.O2 > %t.O2.out 2>&1 || echo "exit status $?" >> %t.O2.out
// RUN: FileCheck %s < %t.O0.out
// RUN: FileCheck %s < %t.O2.out

#include <stdio.h>
#include <ws/ws.h>

static long double shared;
static void set(long double v) { shared = v; }

int main(void) {
  ws_spawn_void(set, 1.5L);
  shared = 2.5L; // the continuation
  // CHECK: long-double.c:[[@LINE-1]]:
  ws_sync();
  printf("%.1Lf\n", shared);
  return 0;
}
// CHECK: ws-race: 1 determinacy race found in this run
// CHECK-NEXT: exit status 66
