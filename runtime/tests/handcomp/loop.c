/*
 * loop.c — a spawn loop lowered by hand against ws/abi.h: N spawns
 * outstanding in one frame, counted, then taken back LIFO at the sync, as
 * ws-lower lowers
 *
 *   for (i = 0; i < N; i++) ws_spawn(r[i], leaf, i);  ws_sync();
 *
 *   loop N R    R such loops; prints "loop(N,R) = S" and checks S against
 *               the same sum computed serially; makes N*R spawns
 */
#include <ws/abi.h>

#include "handcomp.h"

typedef struct leaf_task {
  ws_task hdr;
  long i;
  long result;
} leaf_task;

/* A little work, so that thieves find the loop still spawning. */
static long leaf(long i) {
  unsigned long x = (unsigned long)i * 0x9e3779b97f4a7c15UL + 1;
  for (int k = 0; k < 64; k++)
    x ^= x << 7, x ^= x >> 9;
  return (long)(x % 1000);
}

static void leaf_run(ws_task *t) {
  leaf_task *d = (leaf_task *)t;
  d->result = leaf(d->i);
}

static long spawn_loop(leaf_task *d, long n) {
  ws_worker *w = __ws_self();
  long outstanding = 0;
  for (long i = 0; i < n; i++) {
    leaf_task *t = &d[outstanding++];
    t->hdr.run = leaf_run;
    t->hdr.state = 0;
    t->i = i;
    __ws_push(w, &t->hdr);
  }
  long sum = 0;
  while (outstanding > 0) {
    leaf_task *t = &d[--outstanding];
    if (!((uintptr_t)__ws_take(w) & WS_TAKE_STOLEN))
      t->result = leaf(t->i);
    else
      __ws_join_stolen(w, &t->hdr);
    sum += t->result;
  }
  return sum;
}

int main(int argc, char **argv) {
  const char *usage = "N R (N spawns per loop, R loops)";
  long n = hc_arg(argc, argv, 1, 1, 1L << 26, usage);
  long r = hc_arg(argc, argv, 2, 1, 1L << 20, usage);
  leaf_task *d = malloc((size_t)n * sizeof *d);
  if (!d) {
    fprintf(stderr, "loop: out of memory for %ld descriptors\n", n);
    return 2;
  }
  long sum = 0, want = 0;
  for (long k = 0; k < r; k++)
    sum += spawn_loop(d, n);
  for (long i = 0; i < n; i++)
    want += leaf(i);
  free(d);
  char what[64];
  snprintf(what, sizeof what, "loop(%ld,%ld)", n, r);
  return hc_report(what, sum, want * r);
}
