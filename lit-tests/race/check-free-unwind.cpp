// A check-free spawning function whose children may throw: each child's
// begin reaches its end on the way out through one landing pad, by a phi
// (a spawn and a sync in a loop that the optimizer peels: two children).
// Its hooks go, the begins with the ends.  A begin that stayed because of
// the phi pushed a procedure that nothing popped, so every later strand of
// the run sat a level too deep, and a read after a sync was reported
// parallel with the writes before it (ws-smith seed 237 case 91, -O2 and
// -O3; docs/smith.md, finding 6).
// RUN: %ws-clang++ -fws-race -std=c++17 -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %ws-clang++ -fws-race -std=c++17 -O2 %s -o %t
// RUN: env WS_NUM_WORKERS=1 %t 2>&1 | FileCheck %s --check-prefix=OUT --implicit-check-not=ws-race
// RUN: %ws-clang++ -fws-race -std=c++17 -O0 %s -o %t0
// RUN: env WS_NUM_WORKERS=1 %t0 2>&1 | FileCheck %s --check-prefix=OUT --implicit-check-not=ws-race

#include <cstdio>
#include <ws/ws.h>

struct Mul {
  long k;
  long operator()(long a, long b) const { return k * a + b; }
};

// CHECK-LABEL: define {{.*}}@_ZL4pairl.ws(
// CHECK-NOT: __ws_race_
// CHECK-NOT: __ws_child_begin
// CHECK: ret i64
__attribute__((noinline)) static long pair(long x) {
  struct { long pad; long f[2]; char c; } st;
  st.pad = 1; st.c = 2;
  for (int j = 0; j < 2; j++) st.f[j] = j;
  int i = -1;
  do {
    if (++i >= 2) break;
    ws_spawn(st.f[i], Mul{3}, x + i, x);
    ws_sync();
  } while (1);
  ws_sync();
  return st.f[0] + st.f[1] + st.pad + st.c;
}

__attribute__((noinline)) static long put(long *p, long v) {
  *p = v;
  return v;
}

// The child writes r through its address (checked), the function reads it
// after the sync: serial.
static long outer(long x) {
  long r = 0, w;
  ws_spawn(w, put, &r, x + 1);
  long s = pair(x);
  ws_sync();
  return r + s + w;
}

int main() {
  long t = 0;
  for (long i = 0; i < 4; i++) {
    long v;
    ws_spawn(v, outer, i);
    ws_sync();
    t += v;
  }
  std::printf("t=%ld\n", t);
  return 0;
}
// OUT: t=92
