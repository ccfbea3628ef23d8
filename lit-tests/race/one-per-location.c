// What -fws-race guarantees, exactly (docs/race.md, "What it reports"):
// where the run has a determinacy race on a byte, at least one race on
// that byte is reported; not every racing pair.  The shadow keeps one
// writer and one reader per byte (SP-bags), so here, where a task writes x
// twice and its parent's continuation writes x once before the sync, the
// continuation's write races with both of the task's, but only the first
// pair is reported: after it the task is x's writer, and its second write
// finds itself.  y is written by the continuation and read by two sibling
// tasks: one report again (the two reads are one statement).
// RUN: %ws-clang -fws-race -O0 %s -o %t0
// RUN: %t0 > %t0.out 2>&1 || echo "exit status $?" >> %t0.out
// RUN: FileCheck %s --implicit-check-not=ws-race < %t0.out
// RUN: %ws-clang -fws-race -O2 %s -o %t2
// RUN: %t2 > %t2.out 2>&1 || echo "exit status $?" >> %t2.out
// RUN: FileCheck %s --implicit-check-not=ws-race < %t2.out

#include <stdio.h>
#include <ws/ws.h>

static volatile int x, y;

static __attribute__((noinline)) void twice(int v) {
  x = v;     // the first write: reported against the continuation's
  x = v + 1; // the second: races too, not reported
}

static __attribute__((noinline)) int read_y(int k) { return y + k; }

int main(void) {
  ws_spawn_void(twice, 1);
  x = 5; // the continuation's write
  ws_sync();
  int a, b;
  ws_spawn(a, read_y, 1);
  ws_spawn(b, read_y, 2);
  y = 7;
  ws_sync();
  printf("x=%d a+b=%d\n", x, a + b);
  return 0;
}

// CHECK: ws-race: determinacy race
// CHECK-NEXT: write here:
// CHECK-NEXT: #0 twice {{.*}}one-per-location.c:23:
// CHECK: logically parallel write before it
// CHECK-NEXT: #0 main {{.*}}one-per-location.c:31:
// CHECK: ws-race: determinacy race
// CHECK-NEXT: read here:
// CHECK-NEXT: #0 read_y {{.*}}one-per-location.c:27:
// CHECK: logically parallel write before it
// CHECK-NEXT: #0 main {{.*}}one-per-location.c:36:
// CHECK: x=2 a+b=17
// CHECK: ws-race: 2 determinacy races found in this run
// CHECK-NEXT: exit status 66
