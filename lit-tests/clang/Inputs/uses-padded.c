#include <stdio.h>
#include <ws/ws.h>
long padded_sum(long lo, long hi);
long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}
int main(void) {
  printf("%ld %ld\n", fib(20), padded_sum(0, 1000));
  return 0;
}
