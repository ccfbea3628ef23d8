/*
 * loops — ws_for with the automatic grain covers the range exactly once,
 * in pieces of at most ws_for_grain(n) = min(2048, ceil(n / 8P))
 * iterations, and gives the results of explicit grains; the grain may be
 * any run-time value.
 *
 * usage: loops [n]     (default 20000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

typedef struct loop {
  unsigned char *hit; /* per iteration: times run */
  long biggest;       /* the largest piece */
  ws_reducer sum, pieces, max_piece;
} loop;

static void body(long lo, long hi, void *ctx) {
  loop *l = ctx;
  long s = 0;
  for (long i = lo; i < hi; i++) {
    l->hit[i]++;
    s += i * i % 1000003;
  }
  ws_reducer_sum_long(&l->sum, s);
  ws_reducer_sum_long(&l->pieces, 1);
  ws_reducer_max_long(&l->max_piece, hi - lo);
}

/* Runs the loop with `grain`; returns its sum, or -1 if some iteration
 * ran other than once or a piece was longer than `bound`. */
static long run(long n, long grain, long bound, long *pieces) {
  loop l = {calloc((size_t)n, 1), 0, {0}, {0}, {0}};
  long sum = 0, max_piece = 0;
  *pieces = 0;
  ws_reducer_register(&l.sum, &ws_monoid_sum_long, &sum);
  ws_reducer_register(&l.pieces, &ws_monoid_sum_long, pieces);
  ws_reducer_register(&l.max_piece, &ws_monoid_max_long, &max_piece);
  ws_for(0, n, grain, body, &l);
  ws_reducer_unregister(&l.sum);
  ws_reducer_unregister(&l.pieces);
  ws_reducer_unregister(&l.max_piece);
  for (long i = 0; i < n; i++)
    if (l.hit[i] != 1)
      sum = -1;
  if (max_piece > bound)
    sum = -1;
  free(l.hit);
  return sum;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000;
  long p8 = 8L * ws_num_workers(), failures = 0, pieces;
  long want = (n + p8 - 1) / p8 > 2048 ? 2048 : (n + p8 - 1) / p8;
  if (ws_for_grain(n) != want || ws_for_grain(1) != 1 || ws_for_grain(0) != 1 ||
      ws_for_grain(1L << 40) != 2048)
    failures++;
  long auto_sum = run(n, 0, ws_for_grain(n), &pieces);
  if (auto_sum < 0 || pieces < n / ws_for_grain(n))
    failures++;
  volatile long runtime_grain = 1;
  for (int k = 0; k < 6; k++, runtime_grain *= 7) {
    long explicit_pieces;
    if (run(n, runtime_grain, runtime_grain, &explicit_pieces) != auto_sum)
      failures++;
  }
  if (run(n, -5, ws_for_grain(n), &pieces) != auto_sum) /* <= 0: automatic */
    failures++;
  printf("n=%ld grain=%ld sum=%ld %s\n", n, ws_for_grain(n), auto_sum,
         failures ? "FAIL" : "ok");
  return failures != 0;
}
