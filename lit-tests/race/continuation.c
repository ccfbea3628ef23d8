// A task and its parent's continuation write the same array cell, through
// a pointer the task was given (a race through a pointer counts).
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %t > %t.out 2>&1 || echo "exit status $?" >> %t.out
// RUN: FileCheck %s --check-prefix=TASK < %t.out
// RUN: FileCheck %s --check-prefix=CONT < %t.out
// RUN: FileCheck %s < %t.out

#include <stdio.h>
#include <ws/ws.h>

static void fill(long *cell, long v) {
  *cell = v;
  // TASK: write here:
  // TASK-NEXT: #0 fill {{.*}}continuation.c:[[@LINE-2]]:
}

int main(void) {
  long cells[4] = {0};
  ws_spawn_void(fill, &cells[1], 7);
  // TASK: #1 main {{.*}}continuation.c:[[@LINE-1]]:
  cells[1] = 3; // the continuation
  // CONT: logically parallel write before it
  // CONT-NEXT: #0 main {{.*}}continuation.c:[[@LINE-2]]:
  cells[2] = 4; // another cell: no race
  ws_sync();
  printf("cells %ld %ld\n", cells[1], cells[2]);
  return 0;
}
// CHECK: ws-race: determinacy race on address
// CHECK-NOT: ws-race: determinacy race on address
// CHECK: cells 7 4
// CHECK: ws-race: 1 determinacy race found in this run
// CHECK-NEXT: exit status 66
