// A function's own accesses to an element or a field of its local array or
// struct, once a task got the object's address (issue 34, item 5): the
// local is reachable by another strand, whatever element is accessed.
// ThreadSanitizer's pass asked whether the element's address was captured,
// not the object's, so these were missed (exit 0), and the verdict changed
// with the -O level.  Both -O levels find both races, and nothing else.
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 > %t.O0.out 2>&1 || echo "exit status $?" >> %t.O0.out
// RUN: %t.O2 > %t.O2.out 2>&1 || echo "exit status $?" >> %t.O2.out
// RUN: FileCheck %s < %t.O0.out
// RUN: FileCheck %s < %t.O2.out

#include <stdio.h>
#include <ws/ws.h>

struct range {
  long lo, hi;
};

static void fill(long *a) {
  for (int i = 0; i < 10; i++)
    a[i] = i;
}
static void widen(struct range *r) { r->hi += 10; }

int main(void) {
  long a[10] = {0};
  ws_spawn_void(fill, a);
  a[5] = -1; // element 5 of a local whose address the task has
  // CHECK-DAG: local-elements.c:[[@LINE-1]]:
  ws_sync();
  struct range r = {0, 1};
  ws_spawn_void(widen, &r);
  long hi = r.hi; // a field
  // CHECK-DAG: local-elements.c:[[@LINE-1]]:
  ws_sync();
  printf("a5=%ld hi=%ld r.hi=%ld\n", a[5], hi, r.hi);
  return 0;
}
// CHECK: ws-race: 2 determinacy races found in this run
// CHECK-NEXT: exit status 66
