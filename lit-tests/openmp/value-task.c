// Context-free fast-path tasks given their block's words as values
// (passes/OmpBlockValues.h): where the creator writes the task's block
// only by plain stores and copies before the launch, the spawn's arguments
// are the words written (firstprivates, the shareds' addresses) and the
// body, ws.omp.valuetask.<entry>, writes them into a block of its own, the
// shareds apart; else the block's address, ws.omp.freetask.<entry>.  Every
// shape then runs against its expected output at 1, 2 and 4 workers,
// every variant, and at -O0.
// RUN: rm -f %t.*
// RUN: %clang -fopenmp -O2 -g0 -S -emit-llvm -Xclang -disable-llvm-passes -I%ws-include %s -o %t-pre.ll
// RUN: %opt -load-pass-plugin %plugin -passes=ws-lower -S %t-pre.ll -o - | FileCheck %s
// RUN: for v in %ws-variants; do %ws-clang -fopenmp -fws-fencefree=$v -O2 %s -o %t.$v || exit 1; done
// RUN: %ws-clang -fopenmp -fws-fencefree -O0 %s -o %t.O0
// RUN: %ws-run --workers 1,2,4 --expect '^fib=6765 mix=44673 big=748 untied=6765 loop=140 own=44 addr=110$' %t.* | FileCheck %s --check-prefix=OUT
// OUT: ws-run: all {{[0-9]+}} runs as expected
#include <omp.h>
#include <stdio.h>

// An int and a shared result's address: (i32, ptr).
// CHECK-DAG: define internal void @ws.omp.valuetask..omp_task_entry.(i32 %0, ptr %1)
long fib(int n) {
  if (n < 2)
    return n;
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

// A struct copied whole (16 bytes: two 8-byte words), a pointer, n (an
// implicit firstprivate) and a char; two shareds: 48 bytes, a slot's
// payload.
// CHECK-DAG: define internal void @ws.omp.valuetask..omp_task_entry..3(i64 %0, i64 %1, ptr %2, i32 %3, i8 %4, ptr %5, ptr %6)
struct small {
  double d;
  float f;
  char c;
  short s;
};
static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
long mix(int n) {
  if (n < 1)
    return 1;
  struct small v = {n * 0.5, n * 0.25f, (char)n, (short)(n * 3)};
  char tag = (char)('a' + n % 26);
  const int *tab = table;
  long x = 0, y = 0;
#pragma omp task shared(x, y) firstprivate(v, tag, tab)
  {
    x = (long)(v.d * 2 + v.f * 4) + v.c + v.s + tag + tab[n % 8];
    y = mix(n - 1);
  }
  long z = mix(n - 2);
#pragma omp taskwait
  return x + y + z;
}

// 64 bytes of firstprivates, more than a slot's payload holds: the
// block's address.
// CHECK-DAG: define internal void @ws.omp.freetask..omp_task_entry..6(ptr %0)
long big(int n) {
  long a[8];
  for (int i = 0; i < 8; i++)
    a[i] = n + i;
  long x = 0;
#pragma omp task shared(x) firstprivate(a)
  {
    for (int i = 0; i < 8; i++)
      x += a[i];
  }
  long y = n > 0 ? big(n - 1) : 0;
#pragma omp taskwait
  return x + y;
}

// An untied task re-queues itself through the runtime (its entry calls
// __kmpc_omp_task): not context-free, its block's address.
// CHECK-DAG: define internal void @ws.omp.task..omp_task_entry..9(ptr %0)
long untied_fib(int n) {
  if (n < 2)
    return n;
  long x, y;
#pragma omp task untied shared(x)
  x = untied_fib(n - 1);
  y = untied_fib(n - 2);
#pragma omp taskwait
  return x + y;
}

// Tasks in a loop (a block per iteration, some run at once past the
// cap): an element's address, the loop variable and n.
// CHECK-DAG: define internal void @ws.omp.valuetask..omp_task_entry..12(ptr %0, i32 %1, i32 %2)
long loop(int n) {
  long out[8] = {0};
  for (int i = 0; i < 8; i++) {
    long *slot = &out[i];
#pragma omp task firstprivate(i, slot)
    *slot = (long)i * n;
  }
#pragma omp taskwait
  long s = 0;
  for (int i = 0; i < 8; i++)
    s += out[i];
  return s;
}

// The task changes its copy; the creator changes its variable after the
// launch: the task sees the value at its creation.
// CHECK-DAG: define internal void @ws.omp.valuetask..omp_task_entry..15(i32 %0, ptr %1)
long own(int n) {
  int k = n;
  long x = 0;
#pragma omp task shared(x) firstprivate(k)
  {
    k += 1;
    x = k * 2;
  }
  k = 100;
  long y = k;
#pragma omp taskwait
  return x + y - 100 + (k == 100 ? 0 : 1000);
}

// A private's address given to a function: the body's block stays in
// memory, and the values are still the creator's.
// CHECK-DAG: define internal void @ws.omp.valuetask..omp_task_entry..18(i32 %0, i32 %1, ptr %2)
__attribute__((noinline)) long twice(const int *p) { return 2L * *p; }
long addr(int n) {
  long x = 0;
  int k = n;
#pragma omp task shared(x) firstprivate(k)
  x = twice(&k) + (n > 0 ? addr(n - 1) : 0);
#pragma omp taskwait
  return x;
}

int main(void) {
  long f = 0, m = 0, b = 0, u = 0, l = 0, o = 0, a = 0;
#pragma omp parallel
#pragma omp single
  {
    f = fib(20);
    m = mix(12);
    b = big(10);
    u = untied_fib(20);
    l = loop(5);
    o = own(21);
    a = addr(10);
  }
  printf("fib=%ld mix=%ld big=%ld untied=%ld loop=%ld own=%ld addr=%ld\n", f, m, b, u, l, o, a);
  return 0;
}
