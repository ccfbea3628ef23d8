// A spawn inside another spawn's arguments (a statement expression, GNU C;
// issue 33): the arguments are the parent's code, evaluated before the
// outer spawn, so they may spawn and sync themselves.  Before issue 33:
// "malformed ws_spawn: no matching __ws_spawn_end on every path (use the
// ws_spawn macro of <ws/ws.h>)", though the macro was used.  Every variant
// at -O0 and -O2, the default at -O1 and -O3, 1/2/4/16 workers; the serial
// elision prints the same.
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang -fws-fencefree -O$o %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^2643700$' %t.b.* | FileCheck %s
// RUN: %clang -I%ws-include -O0 %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: 2643700

#include <stdio.h>
#include <ws/ws.h>

static long sq(long x) { return x * x; }
static long add(long a, long b) { return a + b; }

static long f(int n) {
  long r[8];
  for (int i = 0; i < 8; i++)
    ws_spawn(r[i], add, ({
               long t, u;
               ws_spawn(t, sq, i);
               ws_spawn(u, sq, n);
               ws_sync();
               t + u;
             }),
             i ? ({
               long v;
               ws_spawn(v, sq, 2);
               ws_sync();
               v;
             })
               : 1);
  ws_sync();
  long s = 0;
  for (int i = 0; i < 8; i++)
    s += r[i];
  return s;
}

int main(void) {
  long s = 0;
  for (int n = 0; n < 100; n++)
    s += f(n);
  printf("%ld\n", s);
  return 0;
}
