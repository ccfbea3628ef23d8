/*
 * fib.c — Fibonacci lowered by hand against ws/abi.h, the way ws-lower
 * lowers
 *
 *   ws_spawn(a, fib, n - 1);  b = fib(n - 2);  ws_sync();  return a + b;
 *
 * (a clone taking the tail, the task in its slot, the result in the slot
 * after a steal), with the generic entry points, so every variant runs it.
 *
 *   fib N    prints "fib(N) = F" and checks F against a loop; it makes
 *            F(N+1) - 1 spawns (one per call with n >= 2)
 */
#include <ws/abi.h>

#include "handcomp.h"

static long fib(ws_slot *tail, long n);

/* The thunk: the argument from the slot, the result back into it. */
static void fib_run(ws_slot *self, ws_slot *tail) {
  long *payload = (long *)self->payload;
  payload[0] = fib(tail, payload[0]);
}

static long fib(ws_slot *tail, long n) {
  if (n < 2)
    return n;
  tail->run = fib_run;
  *(long *)tail->payload = n - 1;
  __ws_push(tail);
  long b = fib(tail + 1, n - 2);
  long a;
  if (!__ws_take(tail)) {
    a = fib(tail, n - 1); /* not stolen: the spawned call, made directly */
  } else {
    __ws_join(tail);
    a = *(long *)tail->payload;
  }
  return a + b;
}

int main(int argc, char **argv) {
  long n = hc_arg(argc, argv, 1, 0, 60, "N (0..60)");
  long x = 0, y = 1;
  for (long i = 0; i < n; i++) {
    long z = x + y;
    x = y;
    y = z;
  }
  char what[32];
  snprintf(what, sizeof what, "fib(%ld)", n);
  return hc_report(what, fib(__ws_tail(), n), x);
}
