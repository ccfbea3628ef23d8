/* fib(n) with the same work in every call: C(n) = 2 F(n+1) - 1 calls of
 * work w, and a span of n calls (each spawns fib(n-1) after its own work:
 * S(n) = w + S(n-1), S(1) = S(0) = w).  Parallelism C(n) / n. */
#include <ws/scale.h>
#include <ws/ws.h>

#include "spin.h"

static long work;

static long fib(long n) {
  spin(work);
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

int main(int argc, char **argv) {
  long n = arg(argc, argv, 1, 14);
  work = arg(argc, argv, 2, 2000);
  ws_scale_begin("fib");
  long r = fib(n);
  ws_scale_end("fib");
  long f0 = 0, f1 = 1; /* F(n+1) */
  for (long i = 0; i < n; i++) {
    long t = f0 + f1;
    f0 = f1;
    f1 = t;
  }
  analytic("fib", (double)(2 * f1 - 1) / (double)n);
  analytic("<program>", (double)(2 * f1 - 1) / (double)n);
  printf("fib(%ld) = %ld\n", n, r);
  return 0;
}
