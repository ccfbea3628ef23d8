// The pieces of a ws_for are logically parallel: a body that adds into a
// shared variable (instead of a reducer) races.  One report for the line.
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %t > %t.out 2>&1 || echo "exit status $?" >> %t.out
// RUN: FileCheck %s < %t.out

#include <stdio.h>
#include <ws/ws.h>

static long total;

static void add(long lo, long hi, void *ctx) {
  (void)ctx;
  for (long i = lo; i < hi; i++)
    total += i;
  // CHECK: ws-race: determinacy race on address
  // CHECK-NEXT: {{read|write}} here:
  // CHECK-NEXT: #0 add {{.*}}ws-for.c:[[@LINE-3]]:
  // CHECK: logically parallel {{read|write}} before it
  // CHECK-NEXT: #0 add {{.*}}ws-for.c:[[@LINE-5]]:
}

int main(void) {
  ws_for(0, 1000, 10, add, NULL);
  printf("total=%ld\n", total);
  return 0;
}
// CHECK-NOT: ws-race: determinacy race on address
// CHECK: total=499500
// CHECK: ws-race: 1 determinacy race found in this run
// CHECK-NEXT: exit status 66
