// Variable-length arrays that tasks use (issue 33, item 3).  A VLA of a
// loop body, or of a block left by goto, given to a task: its storage ends
// at the block's llvm.stackrestore, so ws-lower syncs before the restore
// (before issue 33 there was no sync: 199 of 200 sums wrong at 1 worker).
// And a spawn in a loop whose arguments do not fit the slot, in a block
// with a VLA: its frame block is on the stack the restore frees, so the
// same sync (before, a segfault at 1 worker).  Every variant at -O0 and
// -O2, the default at -O1 and -O3, 1/2/4/16 workers; the serial elision
// prints the same.
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang -fws-fencefree -O$o %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^ok$' %t.b.* | FileCheck %s
// RUN: %clang -I%ws-include -O0 %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// Each such sync is a remark at the end of the VLA's scope.
// RUN: %ws-clang -fws-fencefree -O1 -c %s -o /dev/null -Rpass-analysis=ws-lower 2>&1 | FileCheck %s --check-prefix=REMARK
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: ok

#include <stdio.h>
#include <ws/ws.h>

static long sum(const long *a, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
static long expect(int it, int n) { return (long)n * it + (long)n * (n - 1) / 2; }

static long res[200];

static void sum_into(long *out, const long *a, int n) { *out = sum(a, n); }

static int loop_body(void) {
  int fails = 0;
  for (int it = 0; it < 200; it++) {
    int n = 10 + it % 7;
    long vla[n];
    for (int i = 0; i < n; i++)
      vla[i] = i + it;
    ws_spawn_void(sum_into, &res[it], vla, n);
  }
  // REMARK-DAG: vla.c:[[@LINE-1]]:3: remark: implicit sync before the end of a variable-length array's scope: a task spawned earlier may still use it
  ws_sync();
  for (int it = 0; it < 200; it++)
    fails += res[it] != expect(it, 10 + it % 7);
  return fails;
}

static int left_by_goto(void) {
  int fails = 0, it = 0;
again:
  {
    int n = 5 + it % 9;
    long vla[n];
    for (int i = 0; i < n; i++)
      vla[i] = i + it;
    ws_spawn_void(sum_into, &res[it], vla, n);
    if (++it < 100)
      goto again;
  }
  ws_sync();
  for (int k = 0; k < 100; k++)
    fails += res[k] != expect(k, 5 + k % 9);
  return fails;
}

struct Big { long a, b, c, d, e, f, g; };
static void big(long *out, struct Big b, long x, long y) { *out = b.a + b.g + x + y; }

static int big_arguments(void) {
  int fails = 0;
  for (int it = 0; it < 200; it++) {
    int n = 10 + it % 7;
    long vla[n];
    for (int i = 0; i < n; i++)
      vla[i] = i + it;
    struct Big b = {it, 0, 0, 0, 0, 0, vla[n - 1]};
    ws_spawn_void(big, &res[it], b, vla[0], vla[1]);
  }
  // REMARK-DAG: vla.c:[[@LINE-1]]:3: remark: implicit sync before the end of a variable-length array's scope (it frees the arguments of the tasks spawned in it)
  ws_sync();
  for (int it = 0; it < 200; it++)
    fails += res[it] != it + (10 + it % 7 - 1 + it) + it + it + 1;
  return fails;
}

int main(void) {
  int fails = loop_body() + left_by_goto() + big_arguments();
  printf(fails ? "FAIL %d\n" : "ok\n", fails);
  return 0;
}
