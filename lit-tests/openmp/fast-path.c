// The OpenMP fast path (issue 35, passes/OmpTasks.cpp): a task its creator
// waits for in the same function becomes a spawn of the creator's own, its
// data in the creating frame (no __kmpc_omp_task_alloc), the last task
// before the taskwait a call; the runtime's begin, end, gtid and taskwait
// checks are inlined (runtime/src/omp/fast.c in ws-abi.bc).  Tasks that
// outlive their function, tasks with depend or an if clause keep the
// runtime's general path; so does everything with omp-tasks=0.
// RUN: %ws-clang -fopenmp -fws-fencefree -O2 -g0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %ws-clang -fopenmp -fws-fencefree -O2 -g0 -S -emit-llvm -fplugin-arg-wsff-omp-tasks=0 %s -o - | FileCheck %s --check-prefix=OFF
// With debug info (the task bodies and the final versions' calls need
// lines: without them clang crashed in DwarfDebug at -O1 and up, and the
// verifier said "!dbg attachment points at wrong subprogram"):
// RUN: for o in -O0 -O1 -O2 -O3; do %ws-clang -fopenmp -fws-fencefree $o -g -S -emit-llvm %s -o - | opt -passes=verify -disable-output || exit 1; done
// RUN: for o in -O0 -O2; do %ws-clang -fopenmp -fws-fencefree $o -g -c %s -o %t.$o.o || exit 1; done
// RUN: %ws-clang -fopenmp -fws-fencefree -O2 -DNO_DEPEND %s -o %t
// RUN: for w in 1 2 4; do env WS_NUM_WORKERS=$w OMP_NUM_THREADS=$w %t 25; done | FileCheck %s --check-prefix=OUT
#include <stdio.h>
#include <stdlib.h>

// CHECK-LABEL: define {{.*}} @fib(
// CHECK-NOT: call {{.*}}@__kmpc_omp_task_alloc
// CHECK-NOT: call {{.*}}@__ws_omp_task_begin
// CHECK-NOT: call {{.*}}@__kmpc_omp_taskwait
// CHECK: ret i64
// OFF-LABEL: define {{.*}} @fib(
// OFF: call {{.*}}@__kmpc_omp_task_alloc
long fib(int n) {
  if (n < 2)
    return n;
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

// A task not waited for in its function: it finishes at the barrier.
// CHECK-LABEL: define {{.*}} @outlives(
// CHECK: call {{.*}}@__kmpc_omp_task_alloc
long counter;
__attribute__((noinline)) void outlives(int k) {
#pragma omp task firstprivate(k)
  {
#pragma omp atomic
    counter += k;
  }
}

// depend and a possibly false if clause: the general path (the runtime
// refuses depend: not run).
// CHECK-LABEL: define {{.*}} @clauses(
// CHECK: call {{.*}}@__kmpc_omp_task_alloc
// CHECK: call {{.*}}@__kmpc_omp_task_with_deps
// CHECK: call {{.*}}@__kmpc_omp_task_alloc
// CHECK: call {{.*}}@__kmpc_omp_task_begin_if0
__attribute__((noinline)) long clauses(int n) {
  long a = 0, b = 0;
#ifdef NO_DEPEND
  a = n;
#else
#pragma omp task shared(a) depend(out : a)
  a = n;
#endif
#pragma omp task shared(b) if (n > 10)
  b = n + 1;
#pragma omp taskwait
  return a + b;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  long r = 0, c = 0;
#pragma omp parallel
#pragma omp single
  {
    r = fib(n);
    for (int k = 1; k <= 100; k++)
      outlives(k);
    c = clauses(n) + clauses(3);
  }
  // OUT-COUNT-3: fib(25) = 75025 counter = 5050 clauses = 58
  printf("fib(%d) = %ld counter = %ld clauses = %ld\n", n, r, counter, c);
  return 0;
}
