// C++: ws_spawn takes any callable -- a lambda with and without captures,
// a function object, std::function, a pointer to member function with the
// object, a move-only lambda -- and, like std::thread, calls a copy of it
// with copies of the arguments.  Under every variant and 1, 2, 4 and 16
// workers; the serial elision gives the same answers.
// RUN: for v in %ws-variants; do %ws-clang++ -fws-fencefree=$v -O2 %s -o %t.$v || exit 1; done
// RUN: %ws-clang++ -fws-fencefree -O0 %s -o %t.O0
// RUN: %ws-run --workers 1,2,4,16 --expect '^ok$' %t.O0 $(for v in %ws-variants; do echo %t.$v; done) | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -I%ws-include -O1 %s -lstdc++ -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL

// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: ok

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <ws/ws.h>

static int fails;
static void expect(long got, long want, const char *what) {
  if (got != want) {
    std::printf("FAIL %s: %ld, expected %ld\n", what, got, want);
    fails++;
  }
}

struct Scale {
  long k;
  long operator()(long x) const { return k * x; }
};
struct Counter {
  long base;
  long add(long x) const { return base + x; }
  void bump(long x) { base += x; }
};
static long sum_to(long n) { return n * (n + 1) / 2; }
static long length(std::string s) { return (long)s.size(); }

// Recursion through a lambda held in a std::function.
static long tree(long n) {
  if (n < 2)
    return n;
  long a, b;
  std::function<long(long)> f = tree;
  ws_spawn(a, f, n - 1);
  ws_spawn(b, [](long m) { return tree(m); }, n - 2);
  ws_sync();
  return a + b;
}

int main() {
  long r[16] = {0};
  long k = 7;
  std::string text = "spawned";
  Counter c{100};
  auto big = [k, a = 1L, b = 2L, d = 3L, e = 4L](long x) { return x + k + a + b + d + e; };
  ws_spawn(r[0], [](long x) { return x + 1; }, 41);              // no captures
  ws_spawn(r[1], [&](long x) { return x * k; }, 6);               // by reference
  ws_spawn(r[2], [k](long x) { return x - k; }, 50);              // by value
  ws_spawn(r[3], Scale{3}, 5);                                     // function object
  std::function<long(long)> sq = [](long x) { return x * x; };
  ws_spawn(r[4], sq, 9);                                           // std::function
  ws_spawn(r[5], &Counter::add, &c, 23);                           // member function
  ws_spawn(r[6], [text](long x) { return (long)text.size() + x; }, 3); // captures a string
  auto owned = std::make_unique<long>(64);
  ws_spawn(r[7], [p = std::move(owned)](long x) { return *p + x; }, 1); // move-only
  ws_spawn(r[8], big, 10);                                         // larger than a slot word
  ws_spawn(r[9], sum_to, 100);                                     // still a plain function
  long (*fp)(long) = sum_to;
  ws_spawn(r[10], fp, 10);                                         // a function pointer variable
  ws_spawn(r[11], [](const std::string &s) { return (long)s.size(); }, std::string("four"));
  ws_spawn(r[13], length, std::string("seven.."));                // a std::string by value
  ws_spawn(r[14], length, "three");                                // converted in the task
  long total = 0;
  ws_spawn_void([&total](long n) { for (long i = 1; i <= n; i++) total += i; }, 10);
  Counter d{0};
  ws_spawn_void(&Counter::bump, &d, 5);
  long refd = 0;
  ws_spawn_void([](long &out) { out = 99; }, std::ref(refd));    // a reference, as std::thread
  ws_spawn(r[12], tree, 20);
  ws_sync();
  expect(r[0], 42, "no captures");
  expect(r[1], 42, "by reference");
  expect(r[2], 43, "by value");
  expect(r[3], 15, "function object");
  expect(r[4], 81, "std::function");
  expect(r[5], 123, "member function");
  expect(r[6], 10, "string capture");
  expect(r[7], 65, "move-only");
  expect(r[8], 27, "large lambda");
  expect(r[9], 5050, "function");
  expect(r[10], 55, "function pointer");
  expect(r[11], 4, "string argument");
  expect(total, 55, "void lambda");
  expect(d.base, 5, "void member");
  expect(refd, 99, "std::ref");
  expect(r[12], 6765, "std::function recursion");
  expect(r[13], 7, "string by value");
  expect(r[14], 5, "converted argument");
  std::printf("%s\n", fails ? "FAIL" : "ok");
  return fails != 0;
}
