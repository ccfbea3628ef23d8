// A variable-length array of the continuation whose scope ends before the
// ws_sync: the task run at the sync is logically parallel with the
// continuation and runs on the same stack, where the array was, and its own
// locals there are new memory, not a race (issue 34, item 3).  The
// compiler reports the end of the array's scope (__ws_race_stack_restored).
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s --implicit-check-not=ws-race
// RUN: %t.O2 2>&1 | FileCheck %s --implicit-check-not=ws-race
// CHECK: vla overlap=yes sum=ok

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

static uintptr_t vla_lo, vla_hi, local_lo, local_hi;

static __attribute__((noinline)) void fill(long *a, long n, long v) {
  for (long i = 0; i < n; i++)
    a[i] = v + i;
}
static __attribute__((noinline)) long total(const long *a, long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += a[i];
  return s;
}

static long child(long n) {
  long local[1024];
  local_lo = (uintptr_t)local;
  local_hi = (uintptr_t)(local + 1024);
  fill(local, 1024, n);
  return total(local, 1024);
}

static long run(long n) {
  long from_child, from_vla;
  ws_spawn(from_child, child, n);
  {
    long vla[n];
    vla_lo = (uintptr_t)vla;
    vla_hi = (uintptr_t)(vla + n);
    fill(vla, n, 1);
    from_vla = total(vla, n);
  }
  ws_sync();
  return from_child + from_vla;
}

int main(int argc, char **argv) {
  (void)argv;
  long n = 1024 + argc - 1;
  long s = run(n);
  int overlap = local_lo < vla_hi && vla_lo < local_hi;
  printf("vla overlap=%s sum=%s\n", overlap ? "yes" : "no",
         s == 1024 * n + 1023 * 512 + n + (n - 1) * n / 2 ? "ok" : "bad");
  return 0;
}
