// Calls shared-library.c's dso_fib from inside tasks of its own: linked
// against the library (no argument) or loading it with dlopen (argv[1]).
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

#ifdef WS_DLOPEN
static long (*dso_fib)(long);
#else
long dso_fib(long n);
#endif

static long call(long n) { return dso_fib(n); }

static long twice(long n) {
  long a, b;
  ws_spawn(a, call, n);
  b = call(n - 1);
  ws_sync();
  return a + b;
}

int main(int argc, char **argv) {
#ifdef WS_DLOPEN
  if (argc < 2) {
    fprintf(stderr, "usage: %s LIBRARY.so\n", argv[0]);
    return 2;
  }
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  dso_fib = (long (*)(long))dlsym(h, "dso_fib");
  if (!dso_fib) {
    fprintf(stderr, "dlsym: %s\n", dlerror());
    return 1;
  }
#endif
  (void)argc;
  (void)argv;
  long ok = 1;
  for (int i = 0; i < 20; i++)
    ok &= twice(22) == 17711 + 10946;
  printf("%s\n", ok ? "dso ok" : "dso WRONG");
  return ok ? 0 : 1;
}
