/*
 * reducer_strands — where the registering strand may read and unregister
 * its reducer, at the edges of the checks that stop misuse
 * (lit/reducer/misuse.c): a registration before the thread's first
 * spawning call; one made while spawns from before it are outstanding,
 * read after the ws_sync that takes them back below it; reads and
 * unregisters from plain functions the strand calls; tasks that register,
 * update through their own spawns and unregister reducers of their own,
 * as the first spawn after their parent's registration (the slot it was
 * made at) and later ones; an ordered reducer beside them.  Each result is
 * checked against a serial computation.
 *
 * usage: reducer_strands [n]     (default 2000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

static long failures;
static void check(int ok, const char *what, long got, long want) {
  if (!ok) {
    printf("failed: %s: %ld, expected %ld\n", what, got, want);
    failures++;
  }
}

/* A monoid of digit strings packed in a long, in serial order (base 10,
 * wrapping): associative, not commutative. */
typedef struct digits {
  unsigned long v, scale;
} digits;
static void digits_identity(void *d) { *(digits *)d = (digits){0, 1}; }
static void digits_reduce(void *l, void *r) {
  digits *a = l, *b = r;
  a->v = a->v * b->scale + b->v;
  a->scale *= b->scale;
}
static const ws_monoid digits_monoid = {sizeof(digits), _Alignof(digits),
                                        digits_identity, digits_reduce, NULL, 0};
static void put_digit(ws_reducer *r, long d) {
  digits *v = ws_reducer_view(r);
  v->v = v->v * 10 + (unsigned long)d;
  v->scale *= 10;
}

static void leaves(ws_reducer *r, long lo, long hi) {
  if (hi - lo == 1) {
    ws_reducer_sum_long(r, lo);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(leaves, r, lo, mid);
  leaves(r, mid, hi);
  ws_sync();
}

static void ordered_leaves(ws_reducer *r, long lo, long hi) {
  if (hi - lo == 1) {
    put_digit(r, lo % 10);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(ordered_leaves, r, lo, mid);
  ordered_leaves(r, mid, hi);
  ws_sync();
}

static long value(ws_reducer *r) { return *(long *)ws_reducer_get(r); }
static void enroll(ws_reducer *r, long *var) {
  ws_reducer_register(r, &ws_monoid_sum_long, var);
}
static long sum_to(long n) { return n * (n - 1) / 2; }
static unsigned long digits_to(long n) {
  unsigned long v = 0;
  for (long i = 0; i < n; i++)
    v = v * 10 + (unsigned long)(i % 10);
  return v;
}

/* A task with a reducer of its own: registered by a plain function it
 * calls, updated by its spawns, read and unregistered after its sync. */
static void own(long n, long *out) {
  long total = 0;
  ws_reducer r;
  enroll(&r, &total);
  leaves(&r, 0, n);
  long got = value(&r);
  ws_reducer_unregister(&r);
  *out = got == total ? total : -1;
}

/* Spawns `own` as the first task after registering r (its slot is the
 * one r was registered at), then more of them, beside updates of r. */
static void nested(long n, long *outs) {
  long total = 0;
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &total);
  for (long k = 0; k < 4; k++) {
    ws_spawn_void(own, n + k, &outs[k]);
    ws_spawn_void(leaves, &r, 0, n);
  }
  ws_sync();
  ws_reducer_unregister(&r);
  check(total == 4 * sum_to(n), "nested: the parent's reducer", total, 4 * sum_to(n));
}

/* Registered while a spawn from before is outstanding: the sync takes the
 * tail below the registration's. */
static void after_spawn(long n) {
  long early, total = 0;
  ws_spawn(early, sum_to, n);
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &total);
  ws_spawn_void(leaves, &r, 0, n);
  leaves(&r, 0, n);
  ws_sync();
  check(value(&r) == 2 * sum_to(n), "registered after a spawn: get", value(&r), 2 * sum_to(n));
  ws_reducer_unregister(&r);
  check(early == sum_to(n) && total == 2 * sum_to(n), "registered after a spawn", total,
        2 * sum_to(n));
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 2000;

  /* Before this thread's first spawning call: it has no deque yet. */
  long total = 0;
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &total);
  digits text = {0, 1};
  ws_reducer o;
  ws_reducer_register(&o, &digits_monoid, &text);
  leaves(&r, 0, n);
  check(value(&r) == sum_to(n), "registered first: get", value(&r), sum_to(n));
  ordered_leaves(&o, 0, 15);
  leaves(&r, 0, n);

  long outs[4];
  nested(n, outs);
  for (long k = 0; k < 4; k++)
    check(outs[k] == sum_to(n + k), "a task's own reducer", outs[k], sum_to(n + k));
  after_spawn(n);
  ordered_leaves(&o, 15, 19);

  ws_reducer_unregister(&r);
  ws_reducer_unregister(&o);
  check(total == 2 * sum_to(n), "registered first", total, 2 * sum_to(n));
  check(text.v == digits_to(19), "ordered, beside the others", (long)text.v,
        (long)digits_to(19));
  printf("n=%ld %s\n", n, failures ? "FAIL" : "ok");
  return failures != 0;
}
