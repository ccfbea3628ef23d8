// A C program that spawns, loading a C++ spawning library with dlopen
// (argv[1]) or at start-up (shared-library-cxx.c).
#include <dlfcn.h>
#include <stdio.h>
#include <ws/ws.h>

#ifdef WS_DLOPEN
static long (*dso_fib)(long), (*dso_throw)(long);
#else
long dso_fib(long n);
long dso_throw(long n);
#endif

static long twice(long n) {
  long a, b;
  ws_spawn(a, dso_fib, n);
  b = dso_fib(n - 1);
  ws_sync();
  return a + b;
}

int main(int argc, char **argv) {
#ifdef WS_DLOPEN
  void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", argc > 1 ? dlerror() : "no library");
    return 1;
  }
  dso_fib = (long (*)(long))dlsym(h, "dso_fib");
  dso_throw = (long (*)(long))dlsym(h, "dso_throw");
  if (!dso_fib || !dso_throw)
    return 1;
#endif
  (void)argc;
  (void)argv;
  long t = twice(20), x = dso_throw(6);
  int ok = t == 6765 + 4181 && x == 0 + 1 + 2 + 4 + 5 + 5 * 610;
  printf("%s\n", ok ? "dso-cxx ok" : "dso-cxx WRONG");
  return ok ? 0 : 1;
}
