// ws-race-instrument runs before the loop vectorizer and the late unrolling
// (passes/Registration.cpp): an innermost loop's accesses at a constant
// stride are checked once, before the loop, which is vectorized after.  At
// the optimizer's end the vectorized and unrolled copies had a check per
// 16 bytes (lud, matmul, cholesky: 10-13x the serial elision).  The
// overlap of two tasks' loops, and a loop's read against the continuation,
// are still reported.
// RUN: %ws-clang -fws-race -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %ws-clang -fws-race -O2 %s -o %t
// RUN: %t 1000 > %t.out 2>&1 || echo "exit status $?" >> %t.out
// RUN: FileCheck %s < %t.out

#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

// IR-LABEL: define {{.*}}void @axpy(
// IR-NOT: call void @__ws_race_{{read|write}}{{[0-9]+}}(
// IR: call void @__ws_race_read_strided(
// IR-NOT: call void @__ws_race_{{read|write}}{{[0-9]+}}(
// IR: <2 x double>
// IR-NOT: call void @__ws_race_{{read|write}}{{[0-9]+}}(
// IR: ret void
__attribute__((noinline)) void axpy(double *y, const double *x, double a, long lo, long hi) {
  for (long i = lo; i < hi; i++)
    y[i] += a * x[i]; // the loop
}

__attribute__((noinline)) double sum(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += x[i]; // the sum
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  double *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y);
  ws_spawn_void(axpy, y, x, 1.0, 0, n / 2 + 1); // one element too many
  axpy(y, x, 2.0, n / 2, n);
  ws_sync();
  double s;
  ws_spawn(s, sum, y, n);
  y[3] = 7; // the write
  ws_sync();
  printf("s=%g\n", s);
  return 0;
}
// The continuation's loop runs first, then the task's:
// CHECK: ws-race: determinacy race on address
// CHECK-NEXT: write here:
// CHECK-NEXT: #0 axpy {{.*}}loop-vectorized.c:26:
// CHECK-NEXT: #1 main {{.*}}loop-vectorized.c:39:
// CHECK-NEXT: __libc_start_call_main
// CHECK-NEXT: logically parallel write before it
// CHECK-NEXT: #0 axpy {{.*}}loop-vectorized.c:26:
// CHECK: parallel because of the ws_spawn at
// CHECK-NEXT: #0 main {{.*}}loop-vectorized.c:39:
// CHECK: ws-race: determinacy race on address
// CHECK-NEXT: read here:
// CHECK-NEXT: #0 sum {{.*}}loop-vectorized.c:32:
// CHECK: logically parallel write before it
// CHECK-NEXT: #0 main {{.*}}loop-vectorized.c:44:
// CHECK: ws-race: 2 determinacy races found in this run
// CHECK: exit status 66
