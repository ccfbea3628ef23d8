// A task's exception at the sync ws-lower adds before a block-local's end
// of life, inside a try (ws-smith's campaign: 7 programs; docs/smith.md).
// The sync was a call: the lowering had made the spawn's invoke a call and
// inlined the macro's helpers, so nothing named the handler in scope, and
// the exception left the function (std::terminate; in a noexcept function
// too).  It now unwinds to the landing pad of the spawn's invoke.  Such a
// pad runs the cleanups of the objects alive at the spawn, and no more:
// when a temporary is made (or an object destroyed) by calls that are not
// invokes between the spawn and the end of life, the sync moves up to where
// the pad is exact -- a counted object must be neither leaked nor destroyed
// twice (live=0); where paths meet on the way (a goto out of the scope),
// each gets its own sync.  Every variant at -O0 and -O2, the default at -O1 and
// -O3, 1/2/4/16 workers; the serial elision prints the same.
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang++ -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang++ -fws-fencefree -O$o %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^1003 1003 2003 3003 4003 5003 6003 live=0$' %t.b.* | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -I%ws-include -O0 %s -lstdc++ -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: 1003 1003 2003 3003 4003 5003 6003 live=0

#include <atomic>
#include <vector>
#include <cstdio>
#include <ws/ws.h>

static std::atomic<long> live;
struct Obj {
  long v;
  explicit Obj(long v) noexcept : v(v) { live++; }
  Obj(const Obj &o) noexcept : v(o.v) { live++; }
  ~Obj() { live--; }
};
struct Err {
  long v;
};

__attribute__((noinline)) static long g(const long *a) {
  if (a[0] == 3)
    throw Err{a[0]};
  return a[1];
}
__attribute__((noinline)) static long sum(const long *p, long n) {
  long s = 0;
  for (long j = 0; j < n; j++)
    s += p[j];
  return s;
}
__attribute__((noinline)) static Obj make(long v) { return Obj(v); }
__attribute__((noinline)) static long peek(const Obj &o) noexcept { return o.v; }
__attribute__((noinline)) static long use(const Obj &o) {
  if (o.v < 0)
    throw Err{o.v};
  return o.v;
}

// The local dies inside the try; the function's handler must get it.
static long plain() {
  try {
    long r = 0;
    {
      long a[2] = {3, 4};
      ws_spawn(r, g, a);
    }
    ws_sync();
    return r;
  } catch (const Err &e) {
    return 1000 + e.v;
  }
}

static long nothrow() noexcept {
  try {
    long r = 0;
    {
      long a[2] = {3, 4};
      ws_spawn(r, g, a);
    }
    ws_sync();
    return r;
  } catch (const Err &e) {
    return 1000 + e.v;
  }
}

// A temporary made by an invoke after the spawn and destroyed by a plain
// call: the invoke's pad does not destroy it.
static long temporary() {
  try {
    long r = 0, t = 0;
    {
      long a[2] = {3, 4};
      ws_spawn(r, g, a);
      t = peek(make(7));
    }
    ws_sync();
    return r + t;
  } catch (const Err &e) {
    return 2000 + e.v;
  }
}

// An object destroyed before the array dies, after an invoke whose pad
// destroys it.
static long destroyed_first() {
  try {
    long r = 0, t = 0;
    {
      long a[2] = {3, 4};
      Obj o(5);
      ws_spawn(r, g, a);
      t = use(o);
    }
    ws_sync();
    return r + t;
  } catch (const Err &e) {
    return 3000 + e.v;
  }
}

static long destroyed_after() {
  try {
    long r = 0, t = 0;
    {
      Obj o(5);
      long a[2] = {3, 4};
      ws_spawn(r, g, a);
      t = use(o);
    }
    ws_sync();
    return r + t;
  } catch (const Err &e) {
    return 4000 + e.v;
  }
}

// A goto out of the vector's scope: the paths meet before its destructor
// (ws-smith seed 139), each gets its sync.
static long goto_out(int k) {
  try {
    long r1 = 0, r2 = 0;
    {
      std::vector<long> v(4, 1);
      const long *p = v.data();
      ws_spawn(r1, sum, p, 4);
      if (k & 512)
        goto out;
      {
        long a[2] = {3, 4};
        ws_spawn(r2, g, a);
      }
    }
  out:;
    ws_sync();
    return r1 + r2;
  } catch (const Err &e) {
    return 6000 + e.v;
  }
}

// In a loop: each iteration's array dies with its task outstanding.
static long loop() {
  try {
    long r[4] = {0};
    for (int i = 0; i < 4; i++) {
      long a[2] = {i == 2 ? 3 : 1, i};
      Obj o(i);
      ws_spawn(r[i], g, a);
      r[i] += use(o);
    }
    ws_sync();
    return r[0] + r[1] + r[2] + r[3];
  } catch (const Err &e) {
    return 5000 + e.v;
  }
}

int main() {
  long a = plain(), b = nothrow(), c = temporary(), d = destroyed_first(),
       e = destroyed_after(), f = loop(), h = goto_out(1);
  std::printf("%ld %ld %ld %ld %ld %ld %ld live=%ld\n", a, b, c, d, e, f, h, live.load());
  return 0;
}
