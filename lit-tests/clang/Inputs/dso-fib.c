// A shared library whose function spawns: built with ws-clang -shared -fPIC,
// loaded by shared-library.c's program at start-up or with dlopen.
#include <ws/ws.h>

long dso_fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, dso_fib, n - 1);
  b = dso_fib(n - 2);
  ws_sync();
  return a + b;
}
