#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ws/ws.h>
typedef struct { long a, b; } S16;
typedef struct { long a, b, c; } S24;
typedef struct { int a, b, c; } I3;
typedef struct { float x, y; } F2;
static long sum3(char c, short s, float f, _Bool b, S16 p, S24 q, F2 v, I3 i, long double ld) {
  return c + s + (long)(f * 2) + b + p.a + p.b + q.a + q.b + q.c + (long)(v.x * 4 + v.y) + i.a + i.b + i.c + (long)(ld * 8);
}
static S24 mk24(S16 p) { S24 r = {p.a, p.b, p.a + p.b}; return r; }
static I3 mk3(int x) { I3 r = {x, x + 1, x + 2}; return r; }
static float half(float x) { return x / 2; }
static double twice(double x) { return 2 * x; }
static char *name(int i) { static char *n[] = {"zero", "one", "two"}; return n[i]; }
static void bump(long *p, long d) { __atomic_fetch_add(p, d, __ATOMIC_RELAXED); }
static long sq(long x) { return x * x; }
static long apply(long (*f)(long), long x) { long r; ws_spawn(r, f, x); ws_sync(); return r; }
/* dynamic mode: spawns in a loop */
static long loopsum(long n) {
  long *r = calloc(n, sizeof *r); long s = 0;
  for (long i = 0; i < n; i++) ws_spawn(r[i], sq, i);
  ws_sync();
  for (long i = 0; i < n; i++) s += r[i];
  free(r); return s;
}
/* branches merging before the sync: dynamic */
static long branchy(int c) { long a = 0, b = 0; if (c) ws_spawn(a, sq, 3); else ws_spawn(b, sq, 4); ws_sync(); return a + b; }
/* implicit sync at return, several returns */
static long early(long n, long *out) { ws_spawn(*out, sq, n); if (n > 5) return 1; return 2; }
static void body(long lo, long hi, void *ctx) { for (long i = lo; i < hi; i++) bump(ctx, i); }
int main(void) {
  int fails = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL %s:%d %s\n", __FILE__, __LINE__, #c); fails++; } } while (0)
  char c = 3; short s = -7; float f = 2.5f; _Bool b = 1; S16 p = {10, 20}; S24 q = {1, 2, 3}; F2 v = {1.5f, 2}; I3 i3 = {4, 5, 6}; long double ld = 0.25L;
  long r1, expect = sum3(c, s, f, b, p, q, v, i3, ld);
  S24 r2; I3 r3; float r4; double r5; char *r6; long acc = 0;
  ws_spawn(r1, sum3, c, s, f, b, p, q, v, i3, ld);
  p.a = 1000; q.c = 1000; /* byval arguments were copied at the spawn */
  ws_spawn(r2, mk24, p);
  ws_spawn(r3, mk3, 41);
  ws_spawn(r4, half, 5.0f);
  ws_spawn(r5, twice, 1.25);
  ws_spawn(r6, name, 2);
  ws_spawn_void(bump, &acc, 5);
  ws_sync();
  CHECK(r1 == expect); CHECK(r2.a == 1000 && r2.b == 20 && r2.c == 1020); CHECK(r3.a == 41 && r3.c == 43);
  CHECK(r4 == 2.5f); CHECK(r5 == 2.5); CHECK(strcmp(r6, "two") == 0); CHECK(acc == 5);
  CHECK(apply(sq, 9) == 81);
  CHECK(loopsum(1000) == 332833500L);
  CHECK(branchy(1) == 9 && branchy(0) == 16);
  long o = 0; CHECK(early(7, &o) == 1 && o == 49); CHECK(early(2, &o) == 2 && o == 4);
  long total = 0; ws_for(0, 100000, 100, body, &total); CHECK(total == 4999950000L);
  printf("%s\n", fails ? "FAILED" : "ok");
  return fails != 0;
}
