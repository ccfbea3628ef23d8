// A spawned call's result read by the continuation before the ws_sync: the
// task's write (at the spawn) and the parent's read are logically parallel.
// The program's own output comes first; the run exits with status 66.
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %t > %t.out 2>&1 || echo "exit status $?" >> %t.out
// RUN: FileCheck %s --check-prefix=WRITE < %t.out
// RUN: FileCheck %s --check-prefix=READ < %t.out
// RUN: FileCheck %s --check-prefix=SPAWN < %t.out
// RUN: FileCheck %s < %t.out

#include <stdio.h>
#include <ws/ws.h>

static long twice(long x) { return 2 * x; }

int main(void) {
  long a = 0;
  ws_spawn(a, twice, 21);
  // WRITE: write here:
  // WRITE-NEXT: #0 main {{.*}}result-before-sync.c:[[@LINE-2]]:
  // SPAWN: parallel because of the ws_spawn at
  // SPAWN-NEXT: #0 main {{.*}}result-before-sync.c:[[@LINE-4]]:
  printf("early a=%ld\n", a);
  // READ: logically parallel read before it
  // READ-NEXT: #0 main {{.*}}result-before-sync.c:[[@LINE-2]]:
  ws_sync();
  printf("a=%ld\n", a);
  return 0;
}
// CHECK: early a=0
// CHECK: ws-race: determinacy race on address
// CHECK: a=42
// CHECK: ws-race: 1 determinacy race found in this run
// CHECK-NEXT: exit status 66
