/*
 * loops — ws_for with the automatic grain covers the range exactly once,
 * in pieces of at most ws_for_grain(n) = min(2048, ceil(n / 8P))
 * iterations, and gives the results of explicit grains; the grain may be
 * any run-time value.  A range longer than LONG_MAX ([LONG_MIN, LONG_MAX))
 * is split in pieces within the grain too, and an empty or reversed range
 * runs nothing.
 *
 * usage: loops [n]     (default 20000)
 */
#include <limits.h>
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

/* The pieces of a loop over a range too long to run: their lengths
 * (unsigned), the longest, the ends. */
typedef struct span {
  ws_reducer length, longest, first, last, calls;
} span;

static void measure(long lo, long hi, void *ctx) {
  span *s = ctx;
  unsigned long n = (unsigned long)hi - (unsigned long)lo;
  ws_reducer_sum_ulong(&s->length, n);
  ws_reducer_max_ulong(&s->longest, n);
  ws_reducer_min_long(&s->first, lo);
  ws_reducer_max_long(&s->last, hi);
  ws_reducer_sum_long(&s->calls, hi > lo ? 1 : 1000000);
}

/* [lo, hi) in pieces of at most grain: 0 if right. */
static int whole_range(long lo, long hi, long grain, long want_calls) {
  span s;
  unsigned long length = 0, longest = 0;
  long first = hi, last = lo, calls = 0;
  ws_reducer_register(&s.length, &ws_monoid_sum_ulong, &length);
  ws_reducer_register(&s.longest, &ws_monoid_max_ulong, &longest);
  ws_reducer_register(&s.first, &ws_monoid_min_long, &first);
  ws_reducer_register(&s.last, &ws_monoid_max_long, &last);
  ws_reducer_register(&s.calls, &ws_monoid_sum_long, &calls);
  ws_for(lo, hi, grain, measure, &s);
  ws_reducer_unregister(&s.length);
  ws_reducer_unregister(&s.longest);
  ws_reducer_unregister(&s.first);
  ws_reducer_unregister(&s.last);
  ws_reducer_unregister(&s.calls);
  if (hi <= lo)
    return calls != 0;
  return length != (unsigned long)hi - (unsigned long)lo ||
         longest > (unsigned long)grain || first != lo || last != hi ||
         calls != want_calls;
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
  /* 2^64 - 1 iterations in 16 pieces of 2^60 (the last one short). */
  if (whole_range(LONG_MIN, LONG_MAX, 1L << 60, 16) ||
      whole_range(LONG_MIN, 0, 1L << 62, 2) || whole_range(-3, LONG_MAX - 3, 1L << 61, 4))
    failures++;
  if (whole_range(5, 3, 1, 0) || whole_range(7, 7, 0, 0)) /* nothing runs */
    failures++;
  printf("n=%ld grain=%ld sum=%ld %s\n", n, ws_for_grain(n), auto_sum,
         failures ? "FAIL" : "ok");
  return failures != 0;
}
