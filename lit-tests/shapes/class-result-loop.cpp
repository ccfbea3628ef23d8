// C++ class-type results of spawns in a loop (issue 33, items 1 and 2): a
// std::string result through sret and a temporary whose destructor runs
// after the call, spawned from a loop, by a function and by a lambda that
// takes a std::string by value.  Before issue 33 the first was refused
// ("side effects after the call that do not depend on it": the implicit
// sync for the previous iteration's task landed inside the spawn) and the
// second crashed clang (RegionSplit::run), at every -O level.  Every
// variant at -O0 and -O2, the default at -O1 and -O3, 1/2/4/16 workers; the
// serial elision prints the same.
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang++ -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang++ -fws-fencefree -O$o %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^ok$' %t.b.* | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -I%ws-include -O0 %s -lstdc++ -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: ok

#include <atomic>
#include <cstdio>
#include <string>
#include <ws/ws.h>

static std::string word(int k) { return std::string(k + 1, char('a' + k)); }

static std::atomic<long> live; // made minus destroyed (tasks make them in parallel)
struct Counted {
  std::string s;
  Counted() { live++; }
  Counted(const Counted &o) : s(o.s) { live++; }
  Counted(Counted &&o) : s(std::move(o.s)) { live++; }
  Counted &operator=(const Counted &) = default;
  Counted &operator=(Counted &&) = default;
  ~Counted() { live--; }
};
static Counted counted(int k) {
  Counted c;
  c.s = word(k % 26);
  return c;
}

int main() {
  int fails = 0;
  for (int round = 0; round < 20; round++) {
    std::string parts[8];
    for (int k = 0; k < 8; k++)
      ws_spawn(parts[k], word, k);
    ws_sync();
    size_t n = 0;
    for (auto &s : parts)
      n += s.size();
    fails += n != 36;

    std::string arr[8], arg = "hello";
    for (int i = 0; i < 8; i++)
      ws_spawn(arr[i], [](std::string s, int k) { return s + std::to_string(k); }, arg, i);
    ws_sync();
    for (int i = 0; i < 8; i++)
      fails += arr[i] != "hello" + std::to_string(i);

    Counted cs[16];
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++)
        ws_spawn(cs[i * 4 + j], counted, i * 4 + j + round);
    ws_sync();
    for (int i = 0; i < 16; i++)
      fails += cs[i].s != word((i + round) % 26);
  }
  if (live != 0)
    std::printf("live %ld\n", live.load());
  std::printf(fails || live ? "FAIL %d\n" : "ok\n", fails);
}
