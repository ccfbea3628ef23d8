/*
 * loop.c — a spawn loop lowered by hand against ws/abi.h: N spawns
 * outstanding in one frame, then taken back LIFO at the sync (the slot
 * below the tail each time, down to where the frame started), as ws-lower
 * lowers
 *
 *   for (i = 0; i < N; i++) ws_spawn(r[i], leaf, i);  ws_sync();
 *
 *   loop N R    R such loops; prints "loop(N,R) = S" and checks S against
 *               the same sum computed serially; makes N*R spawns
 */
#include <ws/abi.h>

#include "handcomp.h"

/* A little work, so that thieves find the loop still spawning. */
static long leaf(long i) {
  unsigned long x = (unsigned long)i * 0x9e3779b97f4a7c15UL + 1;
  for (int k = 0; k < 64; k++)
    x ^= x << 7, x ^= x >> 9;
  return (long)(x % 1000);
}

/* The task's inputs: i, and where its result goes. */
typedef struct leaf_args {
  long i;
  long *result;
} leaf_args;

static void leaf_run(ws_slot *self, ws_slot *tail) {
  (void)tail;
  leaf_args *a = (leaf_args *)self->payload;
  *a->result = leaf(a->i);
}

static long spawn_loop(ws_slot *entry, long *results, long n) {
  ws_slot *tail = entry;
  for (long i = 0; i < n; i++) {
    tail->run = leaf_run;
    *(leaf_args *)tail->payload = (leaf_args){i, &results[i]};
    __ws_push(tail);
    tail++;
  }
  long sum = 0;
  while (tail != entry) {
    ws_slot *t = --tail;
    leaf_args a = *(leaf_args *)t->payload;
    if (!__ws_take(t))
      *a.result = leaf(a.i);
    else
      __ws_join(t);
    sum += *a.result;
  }
  return sum;
}

int main(int argc, char **argv) {
  const char *usage = "N R (N spawns per loop, R loops)";
  long n = hc_arg(argc, argv, 1, 1, 1L << 26, usage);
  long r = hc_arg(argc, argv, 2, 1, 1L << 20, usage);
  long *results = malloc((size_t)n * sizeof *results);
  if (!results) {
    fprintf(stderr, "loop: out of memory for %ld results\n", n);
    return 2;
  }
  long sum = 0, want = 0;
  for (long k = 0; k < r; k++)
    sum += spawn_loop(__ws_tail(), results, n);
  for (long i = 0; i < n; i++)
    want += leaf(i);
  free(results);
  char what[64];
  snprintf(what, sizeof what, "loop(%ld,%ld)", n, r);
  return hc_report(what, sum, want * r);
}
