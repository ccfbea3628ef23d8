// A task's own task (nested spawns) and the outer continuation: the
// grandchild writes what the outer function reads before its sync.
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %t > %t.out 2>&1 || echo "exit status $?" >> %t.out
// RUN: FileCheck %s --check-prefix=INNER < %t.out
// RUN: FileCheck %s --check-prefix=OUTER < %t.out
// RUN: FileCheck %s --check-prefix=SPAWN < %t.out
// RUN: FileCheck %s < %t.out

#include <stdio.h>
#include <ws/ws.h>

static long shared;

static void leaf(long v) {
  shared = v;
  // INNER: write here:
  // INNER-NEXT: #0 leaf {{.*}}nested.c:[[@LINE-2]]:
}

static void middle(long v) {
  ws_spawn_void(leaf, v);
  // INNER-NEXT: #1 middle {{.*}}nested.c:[[@LINE-1]]:
  ws_sync();
}

int main(void) {
  ws_spawn_void(middle, 5);
  // INNER-NEXT: #2 main {{.*}}nested.c:[[@LINE-1]]:
  // SPAWN: parallel because of the ws_spawn at
  // SPAWN-NEXT: #0 main {{.*}}nested.c:[[@LINE-3]]:
  long seen = shared;
  // OUTER: logically parallel read before it
  // OUTER-NEXT: #0 main {{.*}}nested.c:[[@LINE-2]]:
  ws_sync();
  printf("seen=%ld shared=%ld\n", seen, shared);
  return 0;
}
// CHECK: seen=0 shared=5
// CHECK: ws-race: 1 determinacy race found in this run
// CHECK-NEXT: exit status 66
