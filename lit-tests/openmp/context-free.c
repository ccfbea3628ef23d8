// Context-free fast-path tasks (issue 35; ws/omp_abi.h, rule 6;
// passes/OmpTasks.cpp, contextSensitive).  A task none of whose code asks
// the runtime about its task gets no context at its creation and runs in
// the task current where it runs (__ws_omp_free_task_begin/_end: a context
// of its own only where that task has queued children); fib's, and a task
// that calls the C library, are such.  A task whose code queries the
// runtime, creates a task on the general path, calls a function of another
// unit or makes an indirect call keeps its context (__ws_omp_task_ctx_init,
// _begin, _end), directly or through what it calls.  The runtime's
// functions are called here (abi-bc=none), not inlined, so that the IR
// shows which.  Then every shape runs against its expected output at 1, 2
// and 4 workers, every variant.
// RUN: %ws-clang -fopenmp -fws-fencefree -O2 -g0 -S -emit-llvm -fplugin-arg-wsff-abi-bc=none %s -o - | FileCheck %s
// RUN: %ws-clang -fopenmp -fws-fencefree=split -O2 -g0 -S -emit-llvm -fplugin-arg-wsff-abi-bc=none %s -o %t-split.ll
// RUN: echo "calls of helper: $(grep -c '= call .*@helper(' %t-split.ll), published before: $(grep -B1 '= call .*@helper(' %t-split.ll | grep -c '@__ws_publish_tail(')" | FileCheck %s --check-prefix=SPLIT
// RUN: for v in %ws-variants; do %ws-clang -fopenmp -fws-fencefree=$v -O2 %s -o %t.$v || exit 1; done
// RUN: %ws-run --workers 1,2,4 --expect '^fib=6765 lib=210 helper=4183 query=1 general=5050 ext=20 ind=110 final=6765$' %t.* | FileCheck %s --check-prefix=OUT
// OUT: ws-run: all {{[0-9]+}} runs as expected
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// (fib.ws.body, checked below, comes last in the output.)
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

// The C library asks the runtime nothing.
// CHECK-LABEL: define {{.*}} @lib(
// CHECK-NOT: @__ws_omp_task_ctx_init
// CHECK: call {{.*}}@__ws_omp_free_task_begin
__attribute__((noinline)) long lib(int n) {
  long s = 0;
  char *buf = malloc(64);
#pragma omp task shared(s) firstprivate(buf)
  {
    snprintf(buf, 64, "%d", n);
    s = (long)strlen(buf) * 100 + atoi(buf);
  }
#pragma omp taskwait
  free(buf);
  return s;
}

// A context-free task whose code enters spawning code through an entry
// point (helper is not a spawning function): its body, given its tail,
// publishes it before the call for the split and private deques, whose
// entry points read the published tail.
__attribute__((noinline)) long helper(int n) { return fib(n) + 1; }
// (via_helper's clone, checked below, comes late in the output.)  Under
// split, every call of helper (the continuation's, the task's taken back,
// the task's stolen) has the tail published right before it:
// SPLIT: calls of helper: [[N:[1-9][0-9]*]], published before: [[N]]{{$}}
__attribute__((noinline)) long via_helper(int n) {
  long r = 0, s;
#pragma omp task shared(r)
  r = helper(n);
  s = helper(n - 1);
#pragma omp taskwait
  return r + s;
}

// A query, one call down: the context stays.
__attribute__((noinline)) int depth(void) { return omp_get_level() >= 1; }
// CHECK-LABEL: define {{.*}} @query(
// CHECK: call {{.*}}@__ws_omp_task_ctx_init
// CHECK-NOT: @__ws_omp_free_task_begin
// CHECK: ret
__attribute__((noinline)) int query(void) {
  int r = 0;
#pragma omp task shared(r)
  r = depth();
#pragma omp taskwait
  return r;
}

// A task that creates tasks on the general path (they outlive
// `producer`): the context stays, and its children are its own.
long counter;
__attribute__((noinline)) void producer(int k) {
#pragma omp task firstprivate(k)
  {
#pragma omp atomic
    counter += k;
  }
}
// CHECK-LABEL: define {{.*}} @general(
// CHECK: call {{.*}}@__ws_omp_task_ctx_init
// CHECK-NOT: @__ws_omp_free_task_begin
// CHECK: ret
__attribute__((noinline)) long general(void) {
#pragma omp task
  {
    for (int k = 1; k <= 100; k++)
      producer(k);
#pragma omp taskwait
  }
#pragma omp taskwait
  return counter;
}

// Another unit's function (here a weak one, which the link may replace)
// and an indirect call may do anything: the context stays.
__attribute__((weak)) long ext(long v) { return v * 2; }
// CHECK-LABEL: define {{.*}} @external(
// CHECK: call {{.*}}@__ws_omp_task_ctx_init
// CHECK-NOT: @__ws_omp_free_task_begin
// CHECK: ret
__attribute__((noinline)) long external(long v) {
  long r = 0;
#pragma omp task shared(r)
  r = ext(v);
#pragma omp taskwait
  return r;
}
long (*volatile op)(long) = ext;
// CHECK-LABEL: define {{.*}} @indirect(
// CHECK: call {{.*}}@__ws_omp_task_ctx_init
// CHECK-NOT: @__ws_omp_free_task_begin
// CHECK: ret
__attribute__((noinline)) long indirect(long v) {
  long r = 0;
#pragma omp task shared(r)
  r = op(v);
#pragma omp taskwait
  return r;
}

// via_helper's task, taken back in its clone, context-free:
// CHECK-LABEL: define {{.*}} @via_helper.ws(
// CHECK-NOT: @__ws_omp_task_ctx_init
// CHECK: call {{.*}}@__ws_omp_free_task_begin
// fib's code, in its body clone:
// CHECK-LABEL: define {{.*}} @fib.ws.body(
// CHECK-NOT: @__ws_omp_task_ctx_init
// CHECK: call {{.*}}@__ws_omp_free_task_begin
// CHECK-NOT: @__ws_omp_task_ctx_init
// CHECK: ret i64
int main(void) {
  long f = 0, l = 0, g = 0, e = 0, i = 0, fin = 0, h = 0;
  int q = 0;
#pragma omp parallel
#pragma omp single
  {
    // A context-free task created while the current task has a queued
    // child of the general path: its own taskwaits must not wait for it.
    producer(0);
    f = fib(20);
    l = lib(10);
    h = via_helper(18);
    q = query();
    g = general();
    e = external(10);
    i = indirect(55);
  }
  // Created in a final task: run at once or spawned, the same answers.
#pragma omp parallel
#pragma omp single
#pragma omp task final(1) shared(fin)
  fin = fib(20);
  printf("fib=%ld lib=%ld helper=%ld query=%d general=%ld ext=%ld ind=%ld final=%ld\n", f, l,
         h, q, g, e, i, fin);
  return 0;
}
