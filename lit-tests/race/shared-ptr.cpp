// std::shared_ptr copied by sibling tasks is race-free: in a parallel run
// libstdc++ updates the reference count atomically.  The race run is one
// thread, and libstdc++ takes its non-atomic path where glibc says the
// process is single-threaded (__libc_single_threaded): the run must look
// multi-threaded to it (issue 34, item 4).
// RUN: %ws-clang++ -fws-race -std=c++17 -O0 %s -o %t.O0
// RUN: %ws-clang++ -fws-race -std=c++17 -O2 %s -o %t.O2
// RUN: timeout 600 %t.O0 2>&1 | FileCheck %s --implicit-check-not=ws-race
// RUN: timeout 600 %t.O2 2>&1 | FileCheck %s --implicit-check-not=ws-race
// CHECK: shared_ptr uses=1 sum=ok

#include <cstdio>
#include <memory>
#include <vector>
#include <ws/ws.h>

static long sum_of(std::shared_ptr<const std::vector<long>> v) {
  long s = 0;
  for (long x : *v)
    s += x;
  return s;
}

static long copy_and_sum(const std::shared_ptr<const std::vector<long>> &v) {
  std::shared_ptr<const std::vector<long>> mine = v; // a copy in the task
  return sum_of(mine);
}

int main() {
  auto data = std::make_shared<const std::vector<long>>(100, 1);
  long a, b, c, d;
  ws_spawn(a, sum_of, data); // copied into the task
  ws_spawn(b, sum_of, data);
  ws_spawn(c, copy_and_sum, std::cref(data));
  d = copy_and_sum(data);
  ws_sync();
  std::printf("shared_ptr uses=%ld sum=%s\n", data.use_count(),
              a + b + c + d == 400 ? "ok" : "bad");
  return 0;
}
