// A report names the earlier access where it was made, even when the
// continuation touched a neighbouring byte of the same 8 bytes after it
// (issue 34, item 8): byte 0 races (written by the continuation at one line
// and by the task), byte 1 is the continuation's alone, written later at
// another line, which must not be blamed.  The same with 4-byte fields.
// One location was kept per 8 bytes; now each byte's are exact.
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 > %t.O0.out 2>&1 || echo "exit status $?" >> %t.O0.out
// RUN: %t.O2 > %t.O2.out 2>&1 || echo "exit status $?" >> %t.O2.out
// RUN: FileCheck %s --check-prefix=BYTE < %t.O0.out
// RUN: FileCheck %s --check-prefix=BYTE < %t.O2.out
// RUN: FileCheck %s --check-prefix=FIELD < %t.O0.out
// RUN: FileCheck %s --check-prefix=FIELD < %t.O2.out
// RUN: FileCheck %s < %t.O0.out
// RUN: FileCheck %s < %t.O2.out

#include <stdio.h>
#include <ws/ws.h>

struct pair {
  int lo, hi;
};

static void set_byte(char *b) { b[0] = 'T'; }
// BYTE: #0 set_byte {{.*}}granule.c:[[@LINE-1]]:
static void set_lo(struct pair *p) { p->lo = 7; }
// FIELD: #0 set_lo {{.*}}granule.c:[[@LINE-1]]:

int main(void) {
  char bytes[8] = {0};
  ws_spawn_void(set_byte, bytes);
  bytes[0] = 'C'; // races with the task
  // BYTE: logically parallel write before it
  // BYTE-NEXT: #0 main {{.*}}granule.c:[[@LINE-2]]:
  bytes[1] = 'D'; // the continuation's alone
  ws_sync();
  struct pair p = {0, 0};
  ws_spawn_void(set_lo, &p);
  p.lo = 1; // races with the task
  // FIELD: logically parallel write before it
  // FIELD-NEXT: #0 main {{.*}}granule.c:[[@LINE-2]]:
  p.hi = 2; // the continuation's alone
  ws_sync();
  printf("granule %c%c %d %d\n", bytes[0], bytes[1], p.lo, p.hi);
  return 0;
}
// CHECK: granule TD 7 2
// CHECK-NEXT: ws-race: 2 determinacy races found in this run
// CHECK-NEXT: exit status 66
