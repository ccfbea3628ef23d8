// Race-free C programs are clean under -fws-race: accesses ordered by
// ws_sync and by the implicit sync at return; a reducer's views; atomic
// operations; disjoint cells, adjacent bytes included; recursion whose
// frames the serial run puts at the same addresses (fib); heap blocks freed
// by one task and allocated again by another; nested ws_for; mutex-free
// code that a sync orders.  Exit status 0, no report.
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %ws-run --status 0 --expect '^clean fib=6765 sum=499500 bytes=ok heap=ok atomics=2000 nested=ok$' %t | FileCheck %s --implicit-check-not=ws-race
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0 && %t.O0 2>&1 | FileCheck %s --check-prefix=O0 --implicit-check-not=ws-race
// O0: clean fib=6765

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ws/ws.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

static void sum_piece(long lo, long hi, void *ctx) {
  ws_reducer *r = ctx;
  long *v = &WS_VIEW(long, r);
  for (long i = lo; i < hi; i++)
    *v += i;
}

static void set_byte(char *bytes, int i) { bytes[i] = (char)('a' + i); }

static void churn(int k) {
  for (int i = 0; i < 50; i++) {
    char *p = malloc(64);
    memset(p, k, 64);
    free(p);
  }
}

static atomic_long hits;
static void hit(int n) {
  for (int i = 0; i < n; i++)
    atomic_fetch_add(&hits, 1);
}

static void row(long lo, long hi, void *ctx) {
  char (*grid)[64] = ctx;
  for (long i = lo; i < hi; i++)
    for (int j = 0; j < 64; j++)
      grid[i][j] = 1;
}
static void rows(long lo, long hi, void *ctx) { ws_for(lo, hi, 1, row, ctx); }

static long implicit_sync(long *out) {
  ws_spawn(*out, fib, 10); /* returns: the implicit sync orders the write */
  return 0;
}

int main(void) {
  long f = fib(20);
  long sum = 0;
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &sum);
  ws_for(0, 1000, 7, sum_piece, &r);
  ws_reducer_unregister(&r);
  char bytes[16] = {0};
  for (int i = 0; i < 16; i++)
    ws_spawn_void(set_byte, bytes, i);
  ws_sync();
  int bytes_ok = 1;
  for (int i = 0; i < 16; i++)
    bytes_ok &= bytes[i] == 'a' + i;
  for (int k = 0; k < 4; k++)
    ws_spawn_void(churn, k);
  ws_sync();
  ws_spawn_void(hit, 1000);
  hit(1000);
  ws_sync();
  static char grid[32][64];
  ws_for(0, 4, 1, rows, grid);
  int nested_ok = 1;
  for (int i = 0; i < 4; i++)
    nested_ok &= grid[i][63] == 1;
  long ten = 0;
  implicit_sync(&ten);
  printf("clean fib=%ld sum=%ld bytes=%s heap=ok atomics=%ld nested=%s\n", f, sum,
         bytes_ok ? "ok" : "bad", (long)atomic_load(&hits), nested_ok && ten == 55 ? "ok" : "bad");
  return 0;
}
