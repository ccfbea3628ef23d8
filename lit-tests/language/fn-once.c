// ws_spawn evaluates its function expression exactly once, and takes any
// expression that gives a function (a call, a `?:`): the results are the
// serial elision's, under every variant and 1, 2, 4 and 16 workers.
// RUN: for v in %ws-variants; do %ws-clang -fws-fencefree=$v -O1 %s -o %t.$v || exit 1; done
// RUN: %ws-clang -fws-fencefree -O0 %s -o %t.O0
// RUN: %ws-run --workers 1,2,4,16 --expect '^picks=8 ok$' %t.O0 $(for v in %ws-variants; do echo %t.$v; done) | FileCheck %s
// RUN: %clang -I%ws-include -O1 %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL

// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: picks=8 ok

#include <stdio.h>
#include <ws/ws.h>

static long twice(long x) { return 2 * x; }
static long thrice(long x) { return 3 * x; }
static int picks;
static long (*pick(int i))(long) {
  picks++; /* once per spawn, not once per use of `fn` */
  return i % 2 ? thrice : twice;
}
static long (*const table[2])(long) = {twice, thrice};

int main(void) {
  long r[16], want[16];
  for (int i = 0; i < 8; i++) {
    ws_spawn(r[i], pick(i), i);
    want[i] = (i % 2 ? 3 : 2) * i;
  }
  for (int i = 8; i < 16; i++) {
    if (i < 12)
      ws_spawn(r[i], i % 2 ? twice : thrice, i); /* not parenthesised */
    else
      ws_spawn_void(*table[i % 2], i);           /* a dereferenced pointer */
    want[i] = i < 12 ? (i % 2 ? 2 : 3) * i : 0;
  }
  ws_sync();
  for (int i = 12; i < 16; i++)
    r[i] = 0;
  int bad = 0;
  for (int i = 0; i < 16; i++)
    if (r[i] != want[i]) {
      printf("FAIL r[%d] = %ld, expected %ld\n", i, r[i], want[i]);
      bad = 1;
    }
  printf("picks=%d %s\n", picks, bad ? "FAIL" : "ok");
  return bad;
}
