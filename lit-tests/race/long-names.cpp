// A race in a function whose name, demangled, is longer than 511
// characters: a template instantiated on a std::shared_ptr of nested
// standard containers, passed by value to ws_spawn.  The reporter read
// llvm-symbolizer's answer in fixed-size pieces, lost its place and waited
// for ever (issue 34, item 10); the report must come, with the whole name.
// RUN: %ws-clang++ -fws-race -std=c++17 -O0 %s -o %t.O0
// RUN: %ws-clang++ -fws-race -std=c++17 -O2 %s -o %t.O2
// RUN: timeout 600 %t.O0 > %t.O0.out 2>&1 || echo "exit status $?" >> %t.O0.out
// RUN: timeout 600 %t.O2 > %t.O2.out 2>&1 || echo "exit status $?" >> %t.O2.out
// RUN: FileCheck %s < %t.O0.out
// RUN: FileCheck %s < %t.O2.out

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <ws/ws.h>

using Table = std::map<std::string, std::map<std::string, std::vector<std::pair<std::string, std::string>>>>;

static long counter;

template <class T> __attribute__((noinline)) void count(std::shared_ptr<T> table, long by) {
  counter += by + (long)table->size(); // CHECK: #0 void count<std::map<{{.*}}>>(std::shared_ptr<std::map<{{.*}}long) {{.*}}long-names.cpp:[[@LINE]]:
}

int main() {
  auto table = std::make_shared<Table>();
  ws_spawn_void(count<Table>, table, 1);
  count<Table>(table, 2);
  ws_sync();
  std::printf("counter %ld\n", counter);
  return 0;
}
// CHECK: counter
// CHECK-NEXT: ws-race: 1 determinacy race found in this run
// CHECK-NEXT: exit status 66
