// A spawning C++20 coroutine resumed on threads the program created (issue
// 33's campaign, seed 75 case 15).  A coroutine's body is lowered in place:
// it has no entry point through which a thread could hand its call to the
// workers.  There it runs on a deque of the thread's own, serially (as
// with one worker), and the thread's later calls of plain spawning
// functions still go to the workers.  Before, the first resumption on such
// a thread stopped the run at 2 and more workers with "ws: a variadic or
// interposable (weak) spawning function called on a thread the runtime
// does not own".  Three threads each drive a generator of their own and
// take turns on a shared one; each then calls a plain spawning function,
// which must run on a worker.  Every variant at -O0 and -O2, the default
// at -O1 and -O3, 1/2/4/16 workers; the serial elision prints the same.
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang++ -std=c++20 -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o -lpthread || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang++ -std=c++20 -fws-fencefree -O$o %s -o %t.b.O$o -lpthread || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^ok$' %t.b.* | FileCheck %s
// RUN: %clang -x c++ -std=c++20 -I%ws-include -O0 %s -lstdc++ -lpthread -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: ok

#include <coroutine>
#include <cstdio>
#include <exception>
#include <pthread.h>
#include <ws/ws.h>

#include "Inputs/gen.h"

// Yields fib(10 + i % 7) + fib(8 + i % 3), the two spawned, for i < n.
static Gen gen(int n) {
  long r[2];
  for (int i = 0; i < n; i++) {
    ws_spawn(r[0], fib, 10 + i % 7);
    ws_spawn(r[1], fib, 8 + i % 3);
    ws_sync();
    co_yield r[0] + r[1];
  }
}

static long want(int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += fib(10 + i % 7) + fib(8 + i % 3);
  return s;
}

// A plain spawning function: called from a thread of the program's, it is
// handed to the workers, so it runs on one of them (with more than one).
static long plain(long n, int *on_worker) {
  *on_worker = ws_worker_id() >= 0;
  long a;
  ws_spawn(a, fib, n);
  ws_sync();
  return a;
}

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static Gen *shared;
static long shared_sum;

struct Result {
  long own, plain;
  int on_worker;
};

static void *thread_main(void *arg) {
  Result *r = (Result *)arg;
  Gen g = gen(40);
  r->own = 0;
  for (int k = 0; k < 40; k++) {
    if (g.next())
      r->own += g.value();
    pthread_mutex_lock(&shared_lock);
    if (shared->next())
      shared_sum += shared->value();
    pthread_mutex_unlock(&shared_lock);
  }
  r->plain = plain(20, &r->on_worker);
  return nullptr;
}

int main() {
  Gen all = gen(120);
  shared = &all;
  pthread_t t[3];
  Result r[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], nullptr, thread_main, &r[i]);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], nullptr);
  int ok = shared_sum == want(120);
  for (int i = 0; i < 3; i++) {
    ok &= r[i].own == want(40) && r[i].plain == 6765;
#ifdef WS_FENCEFREE
    ok &= r[i].on_worker == (ws_num_workers() > 1);
#endif
  }
  if (ok)
    std::printf("ok\n");
  else
    std::printf("FAIL shared %ld/%ld own %ld %ld %ld/%ld on_worker %d %d %d\n",
                shared_sum, want(120), r[0].own, r[1].own, r[2].own, want(40),
                r[0].on_worker, r[1].on_worker, r[2].on_worker);
}
