// Race-free C++ is clean under -fws-race: ws::reducer (commutative and an
// ordered append), both forms of ws::parallel_reduce, each task its own
// std::string and std::vector, a std::function copied to every task, and
// locals a task uses kept alive by the implicit syncs before their
// destructors.  Exit status 0, no report.
// RUN: %ws-clang++ -fws-race -std=c++17 -O1 %s -o %t
// RUN: %t 2>&1 | FileCheck %s --implicit-check-not=ws-race
// CHECK: clean sum=4950 text=abcdefghij reduce=4950 pieces=4950 strings=ok vectors=ok local=7

#include <cstdio>
#include <functional>
#include <string>
#include <vector>
#include <ws/ws.h>

static void grow(std::vector<long> *v, long n) {
  for (long i = 0; i < n; i++)
    v->push_back(i);
}

struct Box {
  long v = 7;
};
static void read_box(const Box &b, long *out) { *out = b.v; }
static long use_local() {
  long out = 0;
  {
    Box box;
    ws_spawn_void(read_box, std::ref(box), &out);
  } // implicit sync before ~Box (docs/language.md)
  ws_sync();
  return out;
}

int main() {
  ws::reducer<ws::sum<long>> sum;
  ws::parallel_for(0, 100, 7, [&](long lo, long hi) {
    for (long i = lo; i < hi; i++)
      *sum += i;
  });
  ws::reducer<ws::append<std::string>> text;
  ws::parallel_for(0, 10, 1, [&](long lo, long hi) {
    for (long i = lo; i < hi; i++)
      text->push_back(char('a' + i));
  });
  ws::reducer<ws::sum<long>> reduced;
  ws::parallel_reduce(0, 100, 9, reduced, [](long lo, long hi, long &v) {
    for (long i = lo; i < hi; i++)
      v += i;
  });
  long pieces = ws::parallel_reduce(
      0, 100, 9, 0L,
      [](long lo, long hi, long init) {
        for (long i = lo; i < hi; i++)
          init += i;
        return init;
      },
      [](long a, long b) { return a + b; });
  std::vector<std::string> strings(8);
  std::function<void(std::string *, long)> fill = [](std::string *s, long n) {
    s->assign(n, 'x');
  };
  for (long i = 0; i < 8; i++)
    ws_spawn_void(fill, &strings[i], 10 + i);
  std::vector<std::vector<long>> vectors(8);
  for (long i = 0; i < 8; i++)
    ws_spawn_void(grow, &vectors[i], 100 + i);
  ws_sync();
  bool strings_ok = true, vectors_ok = true;
  for (long i = 0; i < 8; i++) {
    strings_ok &= (long)strings[i].size() == 10 + i;
    vectors_ok &= (long)vectors[i].size() == 100 + i;
  }
  std::printf("clean sum=%ld text=%s reduce=%ld pieces=%ld strings=%s vectors=%s local=%ld\n",
              sum.get(), text.get().c_str(), reduced.get(), pieces, strings_ok ? "ok" : "bad",
              vectors_ok ? "ok" : "bad", use_local());
  return 0;
}
