// Two tasks of one sync write the same global: siblings are logically
// parallel.  The second write is the first task's (the sync takes the most
// recent task back first), and the spawn named is the first one's.
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %t > %t.out 2>&1 || echo "exit status $?" >> %t.out
// RUN: FileCheck %s --check-prefix=FIRST < %t.out
// RUN: FileCheck %s --check-prefix=SECOND < %t.out
// RUN: FileCheck %s < %t.out

#include <stdio.h>
#include <ws/ws.h>

static long counter;

static void bump(long by) {
  counter += by;
  // FIRST: {{read|write}} here:
  // FIRST-NEXT: #0 bump {{.*}}siblings.c:[[@LINE-2]]:
  // SECOND: logically parallel {{read|write}} before it
  // SECOND-NEXT: #0 bump {{.*}}siblings.c:[[@LINE-4]]:
}

int main(void) {
  ws_spawn_void(bump, 1);
  // FIRST: #1 main {{.*}}siblings.c:[[@LINE-1]]:
  // FIRST: parallel because of the ws_spawn at
  // FIRST-NEXT: #0 main {{.*}}siblings.c:[[@LINE-3]]:
  ws_spawn_void(bump, 2);
  // SECOND: #1 main {{.*}}siblings.c:[[@LINE-1]]:
  ws_sync();
  printf("counter=%ld\n", counter);
  return 0;
}
// CHECK: ws-race: determinacy race on address
// CHECK-NOT: ws-race: determinacy race on address
// CHECK: counter=3
// CHECK: ws-race: 1 determinacy race found in this run
// CHECK-NEXT: exit status 66
