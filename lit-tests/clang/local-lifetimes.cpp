// ws-lower syncs before the end of life of a local that an outstanding task
// may reach (issue 23 item 1), and only there: each sync is reported with
// -Rpass-analysis=ws-lower at the end of life it precedes.  Locals whose
// copies the task has (a std::string by value, a lambda capturing one),
// the spawn's own holder, and temporaries that die before the spawn get
// none; nor does a local that dies after an explicit ws_sync.
// RUN: %ws-clang++ -fws-fencefree -std=c++17 -O0 -c %s -o %t.o -Rpass-analysis=ws-lower 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: %ws-clang++ -fws-fencefree -std=c++17 -O2 -c %s -o %t.o -Rpass-analysis=ws-lower 2>&1 | FileCheck %s --implicit-check-not=remark:
// With -g the remark names the variable.
// RUN: %ws-clang++ -fws-fencefree -std=c++17 -O1 -g -c %s -o %t.o -Rpass-analysis=ws-lower 2>&1 | FileCheck %s --check-prefix=NAMED

#include <functional>
#include <string>
#include <vector>
#include <ws/ws.h>

struct Obj {
  long v = 7;
  ~Obj();
};
void use(Obj &o);
void sum(const long *p, long n);
void text(std::string s);

void by_ref() {
  Obj obj;
  ws_spawn_void(use, std::ref(obj));
}
// CHECK-DAG: local-lifetimes.cpp:[[@LINE-1]]:1: remark: implicit sync before the end of a local Obj: a task spawned earlier may still use it
// NAMED-DAG: local-lifetimes.cpp:[[@LINE-2]]:1: remark: implicit sync before the end of 'obj'

void vector_data() {
  std::vector<long> v(100, 1);
  ws_spawn_void(sum, v.data(), 100L);
}
// CHECK-DAG: local-lifetimes.cpp:[[@LINE-1]]:1: remark: implicit sync before the end of a local std::vector<long, std::allocator<long>>
// NAMED-DAG: local-lifetimes.cpp:[[@LINE-2]]:1: remark: implicit sync before the end of 'v'

void reducer_lambda() {
  ws::reducer<ws::sum<long>> r;
  long k = 3;
  for (int i = 0; i < 4; i++)
    ws_spawn_void([&r, k, i] { *r += k + i; });
}
// CHECK-DAG: local-lifetimes.cpp:[[@LINE-1]]:1: remark: implicit sync before the end of a local ws::reducer<ws::sum<long>>
// NAMED-DAG: local-lifetimes.cpp:[[@LINE-2]]:1: remark: implicit sync before the end of 'r'

void per_iteration() {
  for (int i = 0; i < 4; i++) {
    Obj o;
    ws_spawn_void(use, std::ref(o));
  }
  // CHECK-DAG: local-lifetimes.cpp:[[@LINE-1]]:3: remark: implicit sync before the end of a local Obj
  // NAMED-DAG: local-lifetimes.cpp:[[@LINE-2]]:3: remark: implicit sync before the end of 'o'
}

void unwinding() {
  Obj obj;
  ws_spawn_void(use, std::ref(obj));
  throw 1;
}
// CHECK-DAG: local-lifetimes.cpp:[[@LINE-1]]:1: remark: implicit sync before the end of a local Obj
// NAMED-DAG: local-lifetimes.cpp:[[@LINE-2]]:1: remark: implicit sync before the end of 'obj'

// No sync: copies, temporaries, after an explicit sync.
void copies() {
  for (int i = 0; i < 4; i++) {
    std::string s(10, 'x');
    ws_spawn_void(text, s);
    ws_spawn_void([s] { text(s); });
    ws_spawn_void(text, std::string("temporary"));
  }
}

void synced() {
  Obj obj;
  ws_spawn_void(use, std::ref(obj));
  ws_sync();
}
