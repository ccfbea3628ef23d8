// A loop body's array given to a task, at -O0 (issue 33, item 5): clang
// emits no lifetime markers at -O0, so nothing marked the end of each
// iteration's array and the next iteration overwrote it while the task
// still read it (63 of 64 sums wrong).  ws-clang's plugin now has clang
// emit the markers at -O0 too (they generate no code there).  Every variant
// at -O0, 1/2/4/16 workers; -O1..-O3 were right before and are checked too.
// RUN: for v in %ws-variants; do %ws-clang -fws-fencefree=$v -O0 %s -o %t.b.$v.O0 || exit 1; done
// RUN: for o in 1 2 3; do %ws-clang -fws-fencefree -O$o %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^ok$' %t.b.* | FileCheck %s
// RUN: %clang -I%ws-include -O0 %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// RUN: %ws-clang -fws-fencefree -O0 -c %s -o /dev/null -Rpass-analysis=ws-lower 2>&1 | FileCheck %s --check-prefix=REMARK
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: ok

#include <stdio.h>
#include <ws/ws.h>

static long res[64];
static void sum(long *out, const long *a) {
  long s = 0;
  for (int i = 0; i < 16; i++)
    s += a[i];
  *out = s;
}

int main(void) {
  for (int it = 0; it < 64; it++) {
    long arr[16];
    for (int i = 0; i < 16; i++)
      arr[i] = i * it;
    ws_spawn_void(sum, &res[it], arr);
  }
  // REMARK: o0-loop-locals.c:[[@LINE-1]]:3: remark: implicit sync before the end of {{.*}}: a task spawned earlier may still use it
  ws_sync();
  int fails = 0;
  for (int it = 0; it < 64; it++)
    fails += res[it] != 120L * it;
  printf(fails ? "FAIL %d\n" : "ok\n", fails);
  return 0;
}
