// Prints the number of workers it runs on (explicit-workers.c): with
// -DEARLY_SET, its own constructor, which runs before libws's, sets it
// first; with -DLIB, a library linked at load time did.
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

#ifdef EARLY_SET
/* Below libws's priority (101); 0..100 are the implementation's. */
__attribute__((constructor(100))) static void early(void) {
  if (ws_set_num_workers(5) != 0)
    exit(1);
}
#endif
#ifdef LIB
int workers_lib_loaded(void);
#endif

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

int main(void) {
#ifdef LIB
  workers_lib_loaded();
#endif
  long f = fib(20);
  printf("workers=%d fib=%ld\n", ws_num_workers(), f);
  return f == 6765 ? 0 : 1;
}
