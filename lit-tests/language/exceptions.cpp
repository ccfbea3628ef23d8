// Exceptions and spawns.  An exception that leaves a spawning function waits
// for its outstanding tasks (a throw right after spawns, a callee's throw,
// in a function without a landing pad, with spawns known or in a loop).  A
// task's exception reaches the spawning function at its sync (explicit, in
// a try block, or at the return), after every task is back; of several,
// the serially first wins, the others are destroyed -- also against the
// function's own exception, thrown after the spawns.  Tasks stolen or not,
// nested, with results.  Every variant, 1, 2, 4 and 16 workers; the serial elision
// prints the same.
// RUN: for v in %ws-variants; do %ws-clang++ -fws-fencefree=$v -O2 %s -o %t.$v || exit 1; done
// RUN: %ws-clang++ -fws-fencefree -O0 %s -o %t.O0
// RUN: %ws-run --workers 1,2,4,16 --expect '^ok$' %t.O0 $(for v in %ws-variants; do echo %t.$v; done) | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -I%ws-include -O1 %s -lstdc++ -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL

// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: ok

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <ws/ws.h>

static int fails;
static void expect(long got, long want, const char *what) {
  if (got != want) {
    std::printf("FAIL %s: %ld, expected %ld\n", what, got, want);
    fails++;
  }
}

// Exceptions count themselves: a dropped one must be destroyed.
struct Err {
  static std::atomic<long> live;
  long which;
  explicit Err(long w) : which(w) { live++; }
  Err(const Err &o) : which(o.which) { live++; }
  ~Err() { live--; }
};
std::atomic<long> Err::live{0};

static std::atomic<long> ran;
static std::atomic<int> started;

static void work(long us) {
  auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  while (std::chrono::steady_clock::now() < end) {
  }
  ran++;
}
static long maybe_throw(long x, long bad) {
  started = 1;
  work(50);
  if (x == bad)
    throw Err(x);
  return x;
}
// With more than one worker, wait (a while) until a thief runs the task.
static void let_steal() {
  if (ws_num_workers() < 2)
    return;
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  while (!started && std::chrono::steady_clock::now() < end) {
  }
}
[[gnu::noinline]] static void thrower() { throw Err(-1); }

// 1. An exception leaving a spawning function waits for its tasks.
static void spawn4_then_throw() {
  ws_spawn_void(work, 100);
  ws_spawn_void(work, 200);
  ws_spawn_void(work, 300);
  ws_spawn_void(work, 400);
  throw Err(4);
}
static void spawn_loop_then_callee_throws(int n) {
  for (int i = 0; i < n; i++)
    ws_spawn_void(work, 50);
  thrower();
}
// 2. A task's exception at an explicit sync in a try block, and at the
// implicit sync of the return.
static long caught_at_sync(long bad) {
  long a = 0, b = 0;
  started = 0;
  try {
    ws_spawn(a, maybe_throw, 1, bad);
    let_steal();
    ws_spawn(b, maybe_throw, 2, bad);
    ws_sync();
  } catch (Err &e) {
    return -e.which;
  }
  return a + b;
}
static long leaves_at_return(long bad) {
  long a;
  started = 0;
  ws_spawn(a, maybe_throw, 7, bad);
  let_steal();
  return 0;
}
// 3. Several tasks throw: the serially first wins, all run.
static long first_wins(int n) {
  long r[64];
  try {
    for (int i = 0; i < n; i++)
      ws_spawn(r[i], maybe_throw, i, i); // every one throws
    ws_sync();
  } catch (Err &e) {
    return e.which;
  }
  return -1;
}
// 4. A task's exception wins over the function's own, thrown later.
static void own_wins() {
  long a;
  started = 0;
  ws_spawn(a, maybe_throw, 5, 5);
  let_steal();
  throw Err(6);
}
// 5. Nested: a task whose own task throws.
static long nested(long depth) {
  if (depth == 0)
    return maybe_throw(0, 0);
  long a, b;
  ws_spawn(a, nested, depth - 1);
  b = depth;
  ws_sync();
  return a + b;
}

int main() {
  ran = 0;
  try {
    spawn4_then_throw();
  } catch (Err &e) {
    expect(e.which, 4, "own throw");
    expect(ran, 4, "tasks run when the exception is caught");
  }
  ran = 0;
  try {
    spawn_loop_then_callee_throws(40);
  } catch (Err &e) {
    expect(e.which, -1, "callee's throw");
    expect(ran, 40, "loop's tasks run when the exception is caught");
  }
  expect(caught_at_sync(0), 3, "no throw");
  expect(caught_at_sync(1), -1, "first task threw");
  expect(caught_at_sync(2), -2, "second task threw");
  try {
    leaves_at_return(7);
    expect(0, 1, "exception at the return");
  } catch (Err &e) {
    expect(e.which, 7, "exception at the return");
  }
  ran = 0;
  expect(first_wins(16), 0, "serially first");
#ifdef WS_FENCEFREE
  expect(ran, 16, "every throwing task ran");
#endif
  try {
    own_wins();
  } catch (Err &e) {
    expect(e.which, 5, "the task's exception before the function's own");
  }
  try {
    nested(6);
    expect(0, 1, "nested");
  } catch (Err &e) {
    expect(e.which, 0, "nested");
  }
  expect(Err::live, 0, "exceptions alive");
  expect(std::uncaught_exceptions(), 0, "uncaught exceptions");
  std::printf("%s\n", fails ? "FAIL" : "ok");
  return fails != 0;
}
