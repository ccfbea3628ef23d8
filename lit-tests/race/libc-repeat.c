// A C library function's range that the current strand checked lately is
// not checked again (runtime/src/race/access.c, ws_race_range: a memcpy
// that the instrumentation checked before calling it).  What was checked
// by one strand says nothing about another: here the continuation copies
// into one buffer twice and out of another twice (the second copies find
// their ranges remembered), and the task, which runs after it at the
// sync, copies into both at the same addresses with the same length; its
// copies must still be checked against the continuation's: a write after
// a write, and a write after a read.
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 > %t.O0.out 2>&1 || echo "exit status $?" >> %t.O0.out
// RUN: %t.O2 > %t.O2.out 2>&1 || echo "exit status $?" >> %t.O2.out
// RUN: FileCheck %s < %t.O0.out
// RUN: FileCheck %s < %t.O2.out

#include <stdio.h>
#include <string.h>
#include <ws/ws.h>

static char buffer[64], shared[64], out[64];
static const char source[64] = "the same bytes, the same length";
static void *(*volatile copy)(void *, const void *, size_t) = memcpy;

static void task(size_t n) {
  copy(buffer, source, n);
  // CHECK: write here:
  // CHECK-NEXT: #0 task {{.*}}libc-repeat.c:[[@LINE-2]]:
  // CHECK: logically parallel write before it
  // CHECK-NEXT: #0 main {{.*}}libc-repeat.c:[[@LINE+11]]:
  copy(shared, source, n);
  // CHECK: write here:
  // CHECK-NEXT: #0 task {{.*}}libc-repeat.c:[[@LINE-2]]:
  // CHECK: logically parallel read before it
  // CHECK-NEXT: #0 main {{.*}}libc-repeat.c:[[@LINE+8]]:
}

int main(int argc, char **argv) {
  size_t n = 24 + (size_t)argc; // not known to the compiler
  ws_spawn_void(task, n);
  copy(buffer, source, n);
  copy(buffer, source, n);
  copy(out, shared, n);
  copy(out, shared, n);
  ws_sync();
  printf("copied %d\n", out[0]);
  return 0;
}
// CHECK: copied 0
// CHECK-NEXT: ws-race: 2 determinacy races found in this run
// CHECK-NEXT: exit status 66
