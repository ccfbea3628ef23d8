// A shared library whose constructor sets the number of workers and
// spawns, before the executable's constructors, libws's included, have
// run (explicit-workers.c).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

__attribute__((constructor)) static void set_workers(void) {
  int rc = ws_set_num_workers(3);
  if (rc != 0) {
    printf("library constructor: ws_set_num_workers(3) = %d\n", rc);
    exit(1);
  }
#ifdef SPAWN_IN_CONSTRUCTOR
  if (fib(20) != 6765) {
    printf("library constructor: fib(20) wrong\n");
    exit(1);
  }
#endif
}

int workers_lib_loaded(void) { return 1; }
