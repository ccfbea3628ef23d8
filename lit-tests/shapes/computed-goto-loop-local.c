// A loop body's array given to a task, in a function with a computed goto
// (ws-smith seed 42; docs/smith.md).  clang emits no lifetime markers in a
// function that takes its labels' addresses (any label may be jumped to,
// so it gives up on scopes), and the array of every iteration is then one
// slot with no end of life between iterations: ws-lower synced nowhere,
// and the tasks of earlier iterations read the next iteration's values
// (every build printed 309090906, at 1 worker too).  ws-lower now syncs
// before a write of the function's own to such a local while a task that
// reaches it may be outstanding.  Every variant at -O0 and -O2, the default
// at -O1 and -O3, 1/2/4/16 workers; the serial elision prints the same.
// RUN: %ws-clang -fws-fencefree -O2 -c %s -o /dev/null -Rpass-analysis=ws-lower 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: computed-goto-loop-local.c:[[@LINE+27]]:{{[0-9]+}}: remark: implicit sync before a write to a local (in a function with a computed goto
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang -fws-fencefree -O$o %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^4060806 4060500$' %t.b.* | FileCheck %s
// RUN: %clang -I%ws-include -O0 %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: 4060806 4060500

#include <stdio.h>
#include <ws/ws.h>

static long rd(const long *p) { return p[0] * 100 + p[3]; }

static void init(long *p, int i) {
  for (int j = 0; j < 4; j++)
    p[j] = i + j;
}

static long run(int c) {
  static void *const tbl[2] = {&&L1, &&L2};
  goto *tbl[c & 1];
L1:
L2:;
  long out[4] = {0};
  for (int i = 0; i < 4; i++) {
    long la[4];
    for (int j = 0; j < 4; j++)
      la[j] = i + j;
    ws_spawn(out[i], rd, la);
  }
  ws_sync();
  return out[0] * 1000000 + out[1] * 10000 + out[2] * 100 + out[3];
}

// The same with the array written by a call (init) and a loop that
// leaves early.
static long run2(int c) {
  static void *const tbl[2] = {&&L1, &&L2};
  long out[4] = {0};
  int i = 0;
again:
  goto *tbl[c & 1];
L1:
L2:;
  {
    long la[4];
    init(la, i);
    ws_spawn(out[i], rd, la);
  }
  if (++i < 4 && i != 3)
    goto again;
  ws_sync();
  return out[0] * 1000000 + out[1] * 10000 + out[2] * 100 + out[3];
}

int main(int argc, char **argv) {
  (void)argv;
  printf("%ld %ld\n", run(argc), run2(argc));
  return 0;
}
