// Spawns in a C++20 coroutine (issue 33, item 13).  A spawn outstanding at
// a co_yield or co_await: each suspension syncs first, as in the serial
// elision, where the task ran before the suspension; after it, the
// coroutine takes the tail of whoever resumes it, a task on any worker
// whose own spawns are outstanding.  Before issue 33 the resumed piece
// spawned at the tail of the thread that first called it: tasks ran with
// garbage arguments (1 to 4 runs of 10 at 2-4 workers), split hung.  Every
// variant at -O0 and -O2, the default at -O1 and -O3, 1/2/4/16 workers;
// the serial elision prints the same.
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang++ -std=c++20 -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang++ -std=c++20 -fws-fencefree -O$o %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^ok$' %t.b.* | FileCheck %s
// RUN: %clang -x c++ -std=c++20 -I%ws-include -O0 %s -lstdc++ -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// RUN: %ws-clang++ -std=c++20 -fws-fencefree -O1 -c %s -o /dev/null -Rpass-analysis=ws-lower 2>&1 | FileCheck %s --check-prefix=REMARK
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: ok

#include <coroutine>
#include <cstdio>
#include <exception>
#include <ws/ws.h>

#include "Inputs/gen.h"

static Gen gen(int n) {
  long r[2];
  for (int i = 0; i < n; i++) {
    ws_spawn(r[0], fib, 15 + i % 5);
    ws_spawn(r[1], fib, 10 + i % 3);
    co_yield i; // the two tasks are outstanding here
    // REMARK: coroutine.cpp:[[@LINE-1]]:5: remark: implicit sync before a coroutine suspension (co_await, co_yield): a task spawned earlier may still be running
    ws_sync();
    co_yield r[0] + r[1];
  }
  // Outstanding at the final suspension too.
  ws_spawn(r[0], fib, 12);
}

// Pulls six values, keeps the sums (every second value).
static long pull(Gen *g) {
  long s = 0;
  for (int k = 0; k < 6 && g->next(); k++)
    if (k % 2)
      s += g->value();
  return s;
}

int main() {
  long s = 0, x[20][4];
  Gen g(gen(60));
  // Resumed from tasks, on any worker, while the resumer has spawns of
  // its own outstanding (in a loop: its sync reads back the slots).
  for (int round = 0; round < 20; round++) {
    long got;
    for (int j = 0; j < 4; j++)
      ws_spawn(x[round][j], fib, 14 + j);
    ws_spawn(got, pull, &g);
    ws_sync();
    s += got;
  }
  while (g.next())
    ;
  long want = 0, xs = 0;
  for (int i = 0; i < 60; i++)
    want += fib(15 + i % 5) + fib(10 + i % 3);
  for (int round = 0; round < 20; round++)
    for (int j = 0; j < 4; j++)
      xs += x[round][j] - fib(14 + j);
  std::printf(s == want && xs == 0 ? "ok\n" : "FAIL %ld %ld %ld\n", s, want, xs);
}
