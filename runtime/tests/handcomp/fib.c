/*
 * fib.c — Fibonacci lowered by hand against ws/abi.h, the way ws-lower
 * lowers
 *
 *   ws_spawn(a, fib, n - 1);  b = fib(n - 2);  ws_sync();  return a + b;
 *
 *   fib N    prints "fib(N) = F" and checks F against a loop; it makes
 *            F(N+1) - 1 spawns (one per call with n >= 2)
 */
#include <ws/abi.h>

#include "handcomp.h"

typedef struct fib_task {
  ws_task hdr;
  long n;
  long result;
} fib_task;

static long fib(long n);

static void fib_run(ws_task *t) {
  fib_task *d = (fib_task *)t;
  d->result = fib(d->n);
}

static long fib(long n) {
  if (n < 2)
    return n;
  ws_worker *w = __ws_self();
  fib_task d = {{fib_run, 0}, n - 1, 0};
  __ws_push(w, &d.hdr);
  long b = fib(n - 2);
  long a;
  if (!((uintptr_t)__ws_take(w) & WS_TAKE_STOLEN)) {
    a = fib(d.n); /* not stolen: the spawned call, made directly */
  } else {
    __ws_join_stolen(w, &d.hdr);
    a = d.result;
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
  return hc_report(what, fib(n), x);
}
