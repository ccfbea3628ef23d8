// C++ callables of every kind race like functions: an inline lambda with
// several captures, a function object, a std::function, a member function,
// and ws::parallel_for's pieces.  One report each.
// RUN: %ws-clang++ -fws-race -std=c++17 -O1 %s -o %t
// RUN: %t > %t.out 2>&1 || echo "exit status $?" >> %t.out
// RUN: FileCheck %s < %t.out

#include <cstdio>
#include <functional>
#include <ws/ws.h>

struct Adder {
  long *to;
  void operator()(long v) const { *to += v; } // CHECK-DAG: #0 Adder::operator(){{.*}}callables.cpp:[[@LINE]]:
};

struct Counter {
  long n = 0;
  void bump(long v) { n += v; } // CHECK-DAG: #0 Counter::bump{{.*}}callables.cpp:[[@LINE]]:
};

int main() {
  long a = 0, b = 0, c = 0, d = 0;
  long k = 2;
  ws_spawn_void([&a, k] { a += k; }); // CHECK-DAG: #0 main::$_0::operator(){{.*}}callables.cpp:[[@LINE]]:
  ws_spawn_void([&a, k] { a -= k; });
  ws_spawn_void(Adder{&b}, 1);
  ws_spawn_void(Adder{&b}, 2);
  std::function<void(long)> f = [&c](long v) { c += v; }; // CHECK-DAG: callables.cpp:[[@LINE]]:
  ws_spawn_void(f, 1);
  ws_spawn_void(f, 2);
  Counter counter;
  ws_spawn_void(&Counter::bump, &counter, 1);
  ws_spawn_void(&Counter::bump, &counter, 2);
  ws::parallel_for(0, 100, 10, [&d](long lo, long hi) {
    for (long i = lo; i < hi; i++)
      d += i; // CHECK-DAG: callables.cpp:[[@LINE]]:
  });
  ws_sync();
  std::printf("%ld %ld %ld %ld %ld\n", a, b, c, counter.n, d);
  return 0;
}
// CHECK: ws-race: 5 determinacy races found in this run
// CHECK-NEXT: exit status 66
