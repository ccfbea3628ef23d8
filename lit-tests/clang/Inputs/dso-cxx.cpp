// A C++ shared library whose functions spawn (shared-library-cxx.c):
// dso_fib throws nothing, but its spawned calls may throw as far as the
// compiler knows, so its syncs carry the exception entry points; dso_throw
// catches the exception a task threw.
#include <stdexcept>
#include <ws/ws.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

static long throws_at(long n, long at) {
  if (n == at)
    throw std::runtime_error("at");
  return n;
}

extern "C" long dso_fib(long n) { return fib(n); }

extern "C" long dso_throw(long n) {
  long caught = 0, sum = 0;
  for (long i = 0; i < n; i++) {
    try {
      long a, b;
      ws_spawn(a, throws_at, i, 3L);
      b = fib(15);
      ws_sync();
      sum += a + b;
    } catch (const std::runtime_error &) {
      caught++;
    }
  }
  return caught == (n > 3) ? sum : -1;
}
