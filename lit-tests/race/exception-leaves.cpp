// A task's exception rethrown at an implicit sync leaves its spawning
// function (here at a return with two tasks outstanding): the function's
// procedure ends on the way out.  It did not: SP-bags kept it on its
// stack, the caller's sync never finished, and the caller's read of a
// result after its sync was reported racing with the task that wrote it
// (ws-smith seed 259 case 13, every -O; docs/smith.md, finding 7).
// RUN: %ws-clang++ -fws-race -std=c++17 -O0 %s -o %t0
// RUN: %t0 2>&1 | FileCheck %s --implicit-check-not=ws-race
// RUN: %ws-clang++ -fws-race -std=c++17 -O2 %s -o %t2
// RUN: %t2 2>&1 | FileCheck %s --implicit-check-not=ws-race

#include <cstdio>
#include <ws/ws.h>

struct Err {
  long v;
};

// The result is assigned by a function of its own: a checked write.
struct Box {
  long v = 0;
  Box() = default;
  explicit Box(long x) : v(x) {}
  Box &operator=(Box &&o) {
    v = o.v;
    return *this;
  }
};

static long boom(long x) {
  if (x & 1)
    throw Err{x};
  return x;
}

__attribute__((noinline)) static void fill(long *out, long k) {
  ws_spawn(out[0], boom, k);
  if (k >= 0)
    return; // the implicit sync takes both tasks back and rethrows
  ws_spawn(out[1], boom, k + 1);
}

static Box make(long x) { return Box(3 * x); }

__attribute__((noinline)) static long caught(long k) {
  long out[2] = {0, 0};
  try {
    fill(out, k);
  } catch (const Err &e) {
    return e.v;
  }
  return out[0];
}

static long f(long k) {
  Box b;
  ws_spawn(b, make, k);
  long c = caught(k);
  ws_sync();
  return b.v + c;
}

int main() {
  long s = 0;
  for (long k = 0; k < 4; k++)
    s += f(k);
  std::printf("s=%ld\n", s);
  return 0;
}
// CHECK: s=24
