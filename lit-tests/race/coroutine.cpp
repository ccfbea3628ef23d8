// -fws-race and C++20 coroutines: a coroutine whose spawns are outstanding
// at a co_yield (the suspension syncs them), pulled by a function that has
// a spawn of its own outstanding, then a spawn and a sync in a loop after
// it.  Each piece of the coroutine is a procedure of its own to SP-bags,
// from where it begins (the entry, or a resumption) to llvm.coro.end;
// before issue 34 the pieces' ends were dropped with the code CoroSplit
// removes after coro.end, and the unbalanced procedures made the loop's
// result read after its sync a race (found by ws-smith).  Clean at -O0 and
// -O2; a read of the coroutine's result before the sync is still found.
// RUN: %ws-clang++ -std=c++20 -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang++ -std=c++20 -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s --implicit-check-not=ws-race
// RUN: %t.O2 2>&1 | FileCheck %s --implicit-check-not=ws-race
// CHECK: clean 1265
// RUN: %ws-clang++ -std=c++20 -fws-race -O1 -DRACY %s -o %t.racy
// RUN: %t.racy > %t.racy.out 2>&1 || echo "exit status $?" >> %t.racy.out
// RUN: FileCheck %s --check-prefix=RACY < %t.racy.out
// RACY: ws-race: determinacy race on address
// RACY: ws-race: 1 determinacy race found in this run
// RACY-NEXT: exit status 66

#include <coroutine>
#include <cstdio>
#include <exception>
#include <ws/ws.h>

struct Gen {
  struct promise_type {
    long cur = 0;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) {
      cur = v;
      return {};
    }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  ~Gen() { h.destroy(); }
  bool next() {
    h.resume();
    return !h.done();
  }
};

static long twice(long x) { return 2 * x; }

static Gen gen(int n) {
  long arr[8];
  for (int i = 0; i < n; i++) {
    ws_spawn(arr[i], twice, (long)i);
#ifdef RACY
    co_yield arr[i]; // read before its sync: the suspension's sync is after
#else
    co_yield (long)i; // outstanding here: the suspension syncs first
#endif
  }
  ws_sync();
  for (int i = 0; i < n; i++)
    co_yield arr[i];
}

// A task that spawns, itself.
static long nested(long x) {
  long y;
  ws_spawn(y, twice, x);
  ws_sync();
  return y;
}

static long pull(int n) {
  Gen g = gen(n);
  long s = 0;
  while (g.next())
    s += g.h.promise().cur;
  return s;
}

int main() {
  long a, *b = new long[5];
  ws_spawn(a, twice, 100L); // outstanding while the coroutine runs
  long s = pull(6);
  ws_sync();
  for (int i = 0; i < 5; i++) {
    ws_spawn(b[i], nested, (long)i);
    ws_sync();
  }
  for (int i = 0; i < 5; i++)
    s += b[i];
  std::printf("clean %ld\n", s + a * 6);
  delete[] b;
  return 0;
}
