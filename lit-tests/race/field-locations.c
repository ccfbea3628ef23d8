// A structure whose fields were written at different lines by one strand
// and then read whole by another keeps one pair (writer, reader) for its 8
// bytes, with each byte's locations apart (runtime/src/race/shadow.c: a
// granule's LOCS block): an access of the whole structure is checked
// once.  Races on such a granule must still be found, and reported with
// each byte's own location: a whole read by the continuation against a
// task's whole write (a missed race if the pair were updated without the
// rules), and a task's whole write against a continuation's writes of
// the two fields at two lines (both lines named, not one for the 8 bytes).
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 > %t.O0.out 2>&1 || echo "exit status $?" >> %t.O0.out
// RUN: %t.O2 > %t.O2.out 2>&1 || echo "exit status $?" >> %t.O2.out
// RUN: FileCheck %s --check-prefix=READ < %t.O0.out
// RUN: FileCheck %s --check-prefix=READ < %t.O2.out
// RUN: FileCheck %s --check-prefix=LO < %t.O0.out
// RUN: FileCheck %s --check-prefix=LO < %t.O2.out
// RUN: FileCheck %s --check-prefix=HI < %t.O0.out
// RUN: FileCheck %s --check-prefix=HI < %t.O2.out
// RUN: FileCheck %s < %t.O0.out
// RUN: FileCheck %s < %t.O2.out

#include <stdio.h>
#include <string.h>
#include <ws/ws.h>

struct pair {
  int lo, hi;
};

static long sink;

__attribute__((noinline)) static void read_whole(struct pair *p) {
  long v;
  memcpy(&v, p, sizeof v);
  sink += v;
}

__attribute__((noinline)) static void write_whole(struct pair *p) {
  long v = 0x0000000600000005l;
  memcpy(p, &v, sizeof v);
}

// The continuation's fields, then a reader task synced inside: the pair
// is one (the continuation wrote, the reader read), the locations two.
__attribute__((noinline)) static void fields_then_read(struct pair *q) {
  // Each line only ever appears as the earlier write of a report.
  q->lo = 8;
  // LO: #0 fields_then_read {{.*}}field-locations.c:[[@LINE-1]]:
  q->hi = 9;
  // HI: #0 fields_then_read {{.*}}field-locations.c:[[@LINE-1]]:
  ws_spawn_void(read_whole, q);
  ws_sync();
}

int main(void) {
  struct pair s;
  s.lo = 1;
  s.hi = 2;
  ws_spawn_void(read_whole, &s); // the first whole read by another strand
  ws_sync();
  ws_spawn_void(write_whole, &s);
  read_whole(&s); // races with the task's write
  // READ: logically parallel read before it
  // READ-NEXT: #0 read_whole
  ws_sync();

  struct pair q = {0, 0};
  ws_spawn_void(write_whole, &q);
  fields_then_read(&q);
  ws_sync();
  printf("fields %d %d %d %d\n", s.lo, s.hi, q.lo, q.hi);
  return 0;
}
// CHECK: fields 5 6 5 6
// CHECK: ws-race: {{[0-9]+}} determinacy races found in this run
// CHECK-NEXT: exit status 66
