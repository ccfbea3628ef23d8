/*
 * reducer_sum — a sum reducer updated by every leaf of a spawn tree (one
 * update per spawned leaf), and a min and a max reducer beside it: the
 * result is the serial elision's whatever the steals.  Also checks that a
 * task a thief runs sees its views start from the identity.
 *
 * usage: reducer_sum [leaves]     (default 10^7)
 */
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

/* A spread of values, so that a lost or repeated update shows. */
static unsigned long mix(unsigned long x) {
  x += 0x9e3779b97f4a7c15ul;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ul;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebul;
  return x ^ (x >> 31);
}

typedef struct sums {
  ws_reducer sum, min, max;
} sums;

static void leaves(sums *s, long lo, long hi) {
  if (hi - lo == 1) {
    unsigned long v = mix((unsigned long)lo);
    ws_reducer_sum_ulong(&s->sum, v);
    ws_reducer_min_ulong(&s->min, v);
    ws_reducer_max_ulong(&s->max, v);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(leaves, s, lo, mid);
  leaves(s, mid, hi);
  ws_sync();
}

/* The parent adds 1000 to its view, then spawns a child that reads its
 * own view first: on the parent's worker the child follows the parent's
 * updates (1000 and more); on a thief it starts from the identity, 0. */
static _Atomic long identity_failures, stolen_children;

static volatile unsigned long busy; /* work that keeps thieves interested */

static void child(ws_reducer *r, int parent_worker) {
  long v = WS_VIEW(long, r);
  unsigned long x = (unsigned long)v;
  for (int i = 0; i < 4000; i++)
    x = mix(x);
  busy = x;
  if (ws_worker_id() != parent_worker) {
    stolen_children++;
    if (v != 0)
      identity_failures++;
  } else if (v < 1000) {
    identity_failures++;
  }
  WS_VIEW(long, r) += 1;
}

static void parents(ws_reducer *r, long n) {
  if (n == 0)
    return;
  WS_VIEW(long, r) += 1000;
  ws_spawn_void(child, r, ws_worker_id());
  ws_spawn_void(parents, r, n - 1);
  ws_sync();
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000000;
  unsigned long sum = 0, min = ~0ul, max = 0, want_sum = 0, want_min = ~0ul,
                want_max = 0;
  sums s;
  ws_reducer_register(&s.sum, &ws_monoid_sum_ulong, &sum);
  ws_reducer_register(&s.min, &ws_monoid_min_ulong, &min);
  ws_reducer_register(&s.max, &ws_monoid_max_ulong, &max);
  leaves(&s, 0, n);
  ws_reducer_unregister(&s.sum);
  ws_reducer_unregister(&s.min);
  ws_reducer_unregister(&s.max);
  for (long i = 0; i < n; i++) {
    unsigned long v = mix((unsigned long)i);
    want_sum += v;
    want_min = v < want_min ? v : want_min;
    want_max = v > want_max ? v : want_max;
  }

  long parts = 0, rounds = 200;
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &parts);
  for (long i = 0; i < 20; i++)
    parents(&r, rounds);
  ws_reducer_unregister(&r);

  int ok = sum == want_sum && min == want_min && max == want_max &&
           parts == 20 * rounds * 1001 && identity_failures == 0;
  printf("leaves=%ld sum=%016lx min=%016lx max=%016lx identity=%s %s\n", n,
         sum, min, max, identity_failures ? "FAILED" : "ok", ok ? "ok" : "FAIL");
  fprintf(stderr, "children run by a thief: %ld\n", (long)stolen_children);
  if (!ok)
    printf("want sum=%016lx min=%016lx max=%016lx parts=%ld (want %ld)\n",
           want_sum, want_min, want_max, parts, 20 * rounds * 1001);
  return ok ? 0 : 1;
}
