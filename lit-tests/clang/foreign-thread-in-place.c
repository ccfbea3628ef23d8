// A thread the program created hands its calls of spawning functions to
// the workers through their entry points (docs/language.md, "Calls from
// other threads").  A spawning function lowered in place has no entry
// point to hand the call over: a variadic one (its va_list cannot be
// forwarded) or a weak one (the linker may pick another definition).
// Called on such a thread, it stops the program with a message and exit
// status 2; the same functions called from the main thread, and a plain
// spawning function called from the thread, run.
// RUN: %ws-clang -fws-fencefree -O1 %s -o %t -lpthread
// RUN: env WS_NUM_WORKERS=2 %t plain | FileCheck %s --check-prefix=PLAIN
// RUN: env WS_NUM_WORKERS=2 %t main | FileCheck %s --check-prefix=MAIN
// RUN: env WS_NUM_WORKERS=2 not %t variadic 2>&1 | FileCheck %s --check-prefix=FATAL
// RUN: env WS_NUM_WORKERS=2 not %t weak 2>&1 | FileCheck %s --check-prefix=FATAL
// RUN: env WS_NUM_WORKERS=2 %t variadic; test $? -eq 2
// PLAIN: plain=55
// MAIN: variadic=55 weak=55
// FATAL: a variadic or interposable (weak) spawning function called on a thread the runtime does not own
// FATAL-NOT: {{^}}variadic=
// FATAL-NOT: {{^}}weak=
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

long plain(long n) {
  long a;
  ws_spawn(a, fib, n);
  ws_sync();
  return a;
}

long variadic(long n, ...) {
  long a;
  ws_spawn(a, fib, n);
  ws_sync();
  return a;
}

__attribute__((weak)) long weak(long n) {
  long a;
  ws_spawn(a, fib, n);
  ws_sync();
  return a;
}

static void *from_thread(void *what) {
  if (!strcmp(what, "plain"))
    printf("plain=%ld\n", plain(10));
  else if (!strcmp(what, "variadic"))
    printf("variadic=%ld\n", variadic(10, 0));
  else
    printf("weak=%ld\n", weak(10));
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 1;
  if (!strcmp(argv[1], "main")) {
    printf("variadic=%ld weak=%ld\n", variadic(10, 0), weak(10));
    return 0;
  }
  (void)ws_num_workers();
  pthread_t t;
  pthread_create(&t, NULL, from_thread, argv[1]);
  pthread_join(t, NULL);
  return 0;
}
