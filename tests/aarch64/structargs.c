/*
 * structargs — spawned functions taking structs by value, of every size from
 * 1 to 40 bytes and a few larger, and homogeneous float aggregates.  AArch64
 * passes a struct over 16 bytes as a pointer to a copy its caller made (no
 * byval): the task must read its own copy, not the caller's temporary, whose
 * lifetime ends at the spawn (issue 36).  The caller overwrites the
 * temporary's stack after each spawn; the printed sums must equal the
 * serial elision's.
 */
#include <stdio.h>
#include <string.h>

#include <ws/ws.h>

#define BYTES(n)                                                               \
  typedef struct { unsigned char b[n]; } s##n;                                 \
  __attribute__((noinline)) static long sum##n(s##n v, long k) {               \
    long r = k;                                                                \
    for (int i = 0; i < n; i++)                                                \
      r = r * 31 + v.b[i];                                                     \
    return r;                                                                  \
  }                                                                            \
  __attribute__((noinline)) static long spawn##n(long k) {                     \
    long out[4];                                                               \
    for (int j = 0; j < 4; j++) {                                              \
      s##n v;                                                                  \
      for (int i = 0; i < n; i++)                                              \
        v.b[i] = (unsigned char)(i * 7 + j + k);                               \
      ws_spawn(out[j], sum##n, v, k + j);                                      \
      scribble();                                                              \
    }                                                                          \
    ws_sync();                                                                 \
    return out[0] ^ out[1] ^ out[2] ^ out[3];                                  \
  }

/* Overwrites the stack below the caller's frame, where a dead temporary was. */
__attribute__((noinline)) static void scribble(void) {
  volatile unsigned char junk[256];
  for (int i = 0; i < 256; i++)
    junk[i] = 0xa5;
  (void)junk;
}

BYTES(1) BYTES(2) BYTES(3) BYTES(4) BYTES(5) BYTES(6) BYTES(7) BYTES(8)
BYTES(9) BYTES(10) BYTES(11) BYTES(12) BYTES(13) BYTES(14) BYTES(15) BYTES(16)
BYTES(17) BYTES(18) BYTES(19) BYTES(20) BYTES(21) BYTES(22) BYTES(23) BYTES(24)
BYTES(25) BYTES(26) BYTES(27) BYTES(28) BYTES(29) BYTES(30) BYTES(31) BYTES(32)
BYTES(33) BYTES(34) BYTES(35) BYTES(36) BYTES(37) BYTES(38) BYTES(39) BYTES(40)
BYTES(64) BYTES(100) BYTES(256)

/* Homogeneous floating-point aggregates: passed in v registers up to four. */
typedef struct { double d[4]; } hfa4;
typedef struct { double d[5]; } hfa5; /* not an HFA: indirect */
__attribute__((noinline)) static double dot4(hfa4 a, hfa4 b) {
  return a.d[0] * b.d[0] + a.d[1] * b.d[1] + a.d[2] * b.d[2] + a.d[3] * b.d[3];
}
__attribute__((noinline)) static double hsum5(hfa5 a, int k) {
  return a.d[0] + a.d[1] + a.d[2] + a.d[3] + a.d[4] + k;
}

/* A tree of spawns whose tasks take 24-byte structs: work for thieves. */
typedef struct { long lo, hi, salt; } range;
__attribute__((noinline)) static long tree(range r) {
  if (r.hi - r.lo < 2)
    return r.lo * r.salt % 1000003;
  long mid = r.lo + (r.hi - r.lo) / 2, a, b;
  range left = {r.lo, mid, r.salt}, right = {mid, r.hi, r.salt};
  ws_spawn(a, tree, left);
  memset(&left, 0, sizeof left);
  b = tree(right);
  ws_sync();
  return (a + b) % 1000003;
}

int main(void) {
#define RUN(n) printf("%d bytes: %ld\n", n, spawn##n(n));
  RUN(1) RUN(2) RUN(3) RUN(4) RUN(5) RUN(6) RUN(7) RUN(8)
  RUN(9) RUN(10) RUN(11) RUN(12) RUN(13) RUN(14) RUN(15) RUN(16)
  RUN(17) RUN(18) RUN(19) RUN(20) RUN(21) RUN(22) RUN(23) RUN(24)
  RUN(25) RUN(26) RUN(27) RUN(28) RUN(29)
  /* From 30 bytes clang fills the temporary with a memcpy, whose writes
   * the optimizer dropped while the spawn's lifetime.end came before the
   * task's copy (issue 36, fixed in ws-lower's region split). */
  RUN(30) RUN(31) RUN(32) RUN(33) RUN(34) RUN(35) RUN(36) RUN(37) RUN(38)
  RUN(39) RUN(40) RUN(64) RUN(100) RUN(256)

  double d[8], e[8];
  for (int j = 0; j < 8; j++) {
    hfa4 a = {{j, j + 1, j + 2, j + 3}}, b = {{1, 2, 3, 4}};
    hfa5 c = {{j, j, j, j, j}};
    ws_spawn(d[j], dot4, a, b);
    ws_spawn(e[j], hsum5, c, j);
    scribble();
  }
  ws_sync();
  double s = 0;
  for (int j = 0; j < 8; j++)
    s += d[j] + e[j];
  printf("float aggregates: %.1f\n", s);

  range all = {0, 20000, 7};
  printf("tree: %ld\n", tree(all));
  return 0;
}
