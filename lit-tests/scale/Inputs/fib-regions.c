/* fib, as lit-tests/clang/Inputs/fib.c; fib-regions.c is the same program
 * with a region around the call, line for line. */
#include <ws/scale.h>
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20; ws_scale_begin("fib");
  long r = fib(n); ws_scale_end("fib");
  printf("fib(%ld) = %ld\n", n, r);
  return 0;
}
