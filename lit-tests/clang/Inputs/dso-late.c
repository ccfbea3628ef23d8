// Starts the workers (a spawn), then dlopen's the library of argv[1] and
// calls its dso_fib: the library's record reaches a runtime whose thieves
// already steal (shared-library-delta.c).
#include <dlfcn.h>
#include <stdio.h>
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

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s LIBRARY.so\n", argv[0]);
    return 2;
  }
  if (fib(20) != 6765)
    return 1;
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  long (*dso_fib)(long) = (long (*)(long))dlsym(h, "dso_fib");
  if (!dso_fib) {
    fprintf(stderr, "dlsym: %s\n", dlerror());
    return 1;
  }
  printf("dso_fib(20) = %ld\n", dso_fib(20));
  return 0;
}
