// A thread the program created hands its calls of spawning functions to
// the workers through their entry points (docs/language.md, "Calls from
// other threads").  A spawning function lowered in place has no entry
// point to hand the call over: a variadic one (its va_list cannot be
// forwarded) or a weak one (the linker may pick another definition).
// Called on such a thread, it runs there, serially, on a deque of the
// thread's own (as with one worker), and the thread's later calls of plain
// spawning functions still go to the workers.  Before issue 33's campaign
// it stopped the program ("a variadic or interposable (weak) spawning
// function called on a thread the runtime does not own").
// RUN: %ws-clang -fws-fencefree -O1 %s -o %t -lpthread
// RUN: env WS_NUM_WORKERS=2 %t plain | FileCheck %s --check-prefix=PLAIN
// RUN: env WS_NUM_WORKERS=2 %t main | FileCheck %s --check-prefix=MAIN
// RUN: env WS_NUM_WORKERS=2 %t variadic 2>&1 | FileCheck %s --check-prefix=VARIADIC
// RUN: env WS_NUM_WORKERS=2 %t weak 2>&1 | FileCheck %s --check-prefix=WEAK
// RUN: env WS_NUM_WORKERS=1 %t weak 2>&1 | FileCheck %s --check-prefix=WEAK1
// PLAIN: plain=55 on_worker=1
// MAIN: variadic=55 weak=55
// VARIADIC-NOT: ws:
// VARIADIC: variadic=55 on_worker=-1 then plain=55 on_worker=1
// WEAK-NOT: ws:
// WEAK: weak=55 on_worker=-1 then plain=55 on_worker=1
// WEAK1: weak=55 on_worker=-1 then plain=55 on_worker=-1
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

static int where;

long plain(long n) {
  long a;
  where = ws_worker_id();
  ws_spawn(a, fib, n);
  ws_sync();
  return a;
}

long variadic(long n, ...) {
  long a;
  where = ws_worker_id();
  ws_spawn(a, fib, n);
  ws_sync();
  return a;
}

__attribute__((weak)) long weak(long n) {
  long a;
  where = ws_worker_id();
  ws_spawn(a, fib, n);
  ws_sync();
  return a;
}

static void *from_thread(void *what) {
  if (!strcmp(what, "plain")) {
    long r = plain(10);
    printf("plain=%ld on_worker=%d\n", r, where >= 0);
    return NULL;
  }
  long r = !strcmp(what, "variadic") ? variadic(10, 0) : weak(10);
  int in_place = where;
  long p = plain(10);
  printf("%s=%ld on_worker=%d then plain=%ld on_worker=%d\n", (char *)what, r,
         in_place, p, where >= 0 ? 1 : where);
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
