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
  long n = argc > 1 ? atol(argv[1]) : 25;
  printf("fib(%ld) = %ld\n", n, fib(n));
  return 0;
}
