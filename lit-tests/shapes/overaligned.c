// Over-aligned structs passed by value to a spawned function (issue 33,
// item 6): the task's copy is kept in the spawning frame, and was only
// 16-byte aligned, though the callee may rely on _Alignas(64) or
// _Alignas(4096) (misaligned at -O0, a segfault in a loop).  The frame
// block is now as aligned as its most aligned field.  Every variant at -O0
// and -O2, the default at -O1 and -O3, 1/2/4/16 workers; the serial elision
// prints the same.
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang -fws-fencefree -O$o %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^ok$' %t.b.* | FileCheck %s
// RUN: %clang -I%ws-include -O0 %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: ok

#include <stdint.h>
#include <stdio.h>
#include <ws/ws.h>

struct A { _Alignas(64) long v[3]; };
struct P { _Alignas(4096) long v; };

/* The address is read through a volatile so that the compiler cannot
 * fold the check from the alignment it assumes. */
static long misaligned(const void *p, uintptr_t align) {
  const void *volatile q = p;
  return (uintptr_t)q % align != 0;
}
static long fa(struct A a) { return misaligned(&a, 64) ? -1000 : a.v[0] + a.v[2]; }
static void fp(long *out, struct P p, int k) { *out = misaligned(&p, 4096) ? -1000 : p.v + k; }

int main(void) {
  struct A a = {{1, 2, 3}};
  struct P p = {7};
  long x, y, xs[10], ys[10];
  ws_spawn(x, fa, a);
  ws_spawn_void(fp, &y, p, 1);
  for (int i = 0; i < 10; i++) {
    ws_spawn(xs[i], fa, a);
    ws_spawn_void(fp, &ys[i], p, i);
  }
  ws_sync();
  int fails = x != 4 || y != 8;
  for (int i = 0; i < 10; i++)
    fails += xs[i] != 4 || ys[i] != 7 + i;
  printf(fails ? "FAIL %d\n" : "ok\n", fails);
  return 0;
}
