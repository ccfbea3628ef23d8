// The generator and the spawning fib that lit-tests/shapes/coroutine*.cpp
// share: a coroutine yielding longs, resumed by next(); fib with a spawn.
#ifndef WSFF_LIT_SHAPES_GEN_H
#define WSFF_LIT_SHAPES_GEN_H

#include <coroutine>
#include <exception>
#include <ws/ws.h>

struct Gen {
  struct promise_type {
    long value = 0;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(long v) {
      value = v;
      return {};
    }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  Gen(const Gen &) = delete;
  ~Gen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  long value() const { return h.promise().value; }
};

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

#endif
