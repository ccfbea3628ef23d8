// dlopens a ws-clang -shared library and calls its spawning dso_fib from
// main, spawning nothing itself.
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", argc > 1 ? dlerror() : "no library");
    return 1;
  }
  long (*f)(long) = (long (*)(long))dlsym(h, "dso_fib");
  if (!f)
    return 1;
  printf("dso_fib(20) = %ld\n", f(20));
  return 0;
}
