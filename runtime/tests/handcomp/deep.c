/*
 * deep.c — deep recursion with a spawn outstanding at every level, lowered
 * by hand against ws/abi.h, the way ws-lower lowers
 *
 *   long chain(long d) {          // d frames deep, d spawns outstanding
 *     if (d == 0) return 0;
 *     long a, b;
 *     ws_spawn(a, leaf, d);
 *     b = chain(d - 1);
 *     ws_sync();
 *     return a + b;
 *   }
 *
 * with the generic entry points, so every variant runs it.
 *
 *   deep D C    C chains D deep: one called by the main thread (C = 1), or
 *               C spawned, so that thieves run some on their own stacks;
 *               prints "deep(D,C) = S"
 *
 * Too deep for a stack, it must stop with the runtime's message naming the
 * stack to raise, never crash (issue 14).
 */
#include <ws/abi.h>

#include "handcomp.h"

static long leaf(long d) { return d & 7; }

static void leaf_run(ws_slot *self, ws_slot *tail) {
  (void)tail;
  long *payload = (long *)self->payload;
  payload[0] = leaf(payload[0]);
}

static long chain(ws_slot *tail, long d) {
  if (d == 0)
    return 0;
  tail->run = leaf_run;
  *(long *)tail->payload = d;
  __ws_push(tail);
  long b = chain(tail + 1, d - 1);
  long a;
  if (!__ws_take(tail)) {
    a = leaf(d);
  } else {
    __ws_join(tail);
    a = *(long *)tail->payload;
  }
  return a + b;
}

static void chain_run(ws_slot *self, ws_slot *tail) {
  long *payload = (long *)self->payload;
  payload[0] = chain(tail, payload[0]);
}

int main(int argc, char **argv) {
  const char *usage = "D C (C chains D deep)";
  long d = hc_arg(argc, argv, 1, 0, 100000000, usage);
  long c = hc_arg(argc, argv, 2, 1, 1024, usage);
  long want = 0;
  for (long i = 1; i <= d; i++)
    want += leaf(i);
  want *= c;
  ws_slot *tail = __ws_tail();
  long sum = 0;
  if (c == 1) {
    sum = chain(tail, d);
  } else {
    for (long i = 0; i < c; i++) {
      tail[i].run = chain_run;
      *(long *)tail[i].payload = d;
      __ws_push(&tail[i]);
    }
    for (long i = c - 1; i >= 0; i--) {
      if (!__ws_take(&tail[i])) {
        sum += chain(&tail[i], d);
      } else {
        __ws_join(&tail[i]);
        sum += *(long *)tail[i].payload;
      }
    }
  }
  char what[64];
  snprintf(what, sizeof what, "deep(%ld,%ld)", d, c);
  return hc_report(what, sum, want);
}
