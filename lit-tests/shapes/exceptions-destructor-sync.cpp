// A task's exception at a sync ws-lower places right before a destructor
// (smith campaign 4, seed 242 case 122, cut down by hand to the case, one
// function of case 3 and the generator's prelude).  f16 spawns a task that
// throws, makes a temporary Obj (counted) and destroys it, then syncs; the
// task may reach the temporary, so the sync goes before its destructor
// (LocalLifetimes), where no landing pad of clang's destroys it.  The
// task's exception left f16 there and the Obj was never destroyed
// (live=1, the checksum right) at every -O, variant and worker count.
// Now the sync unwinds through a pad that destroys it (destroyingPad,
// TaskExceptions.h).  Every variant at -O1, the default at -O0, -O2 and
// -O3, 1/2/4 workers; the serial elision prints the same.
// RUN: rm -f %t.b.*
// RUN: for v in %ws-variants; do %ws-clang++ -std=c++17 -fws-fencefree=$v -O1 -w %s -o %t.b.$v.O1 || exit 1; done
// RUN: for o in 0 2 3; do %ws-clang++ -std=c++17 -fws-fencefree -O$o -w %s -o %t.b.O$o || exit 1; done
// RUN: %ws-run --workers 1,2,4 --expect '^case 122: ddd658390d97da16 live=0$' %t.b.* | FileCheck %s
// RUN: %clang -x c++ -std=c++17 -I%ws-include -O1 -w %s -lstdc++ -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: case 122: ddd658390d97da16 live=0
#include <ws/ws.h>
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <pthread.h>
#include <string>
#include <utility>
#include <vector>

typedef unsigned long long u64;
static u64 mix(u64 h, u64 v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0x100000001b3ULL;
}
static const long ro[64] = {
  3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4,
  3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7, 1, 6, 9, 3, 9, 9, 3, 7,
  5, 1, 0, 5, 8, 2, 0, 9, 7, 4, 9, 4, 4, 5, 9, 2};
static float mk_f(u64 e) { return (float)(e % 100003) / 8.0f; }
static u64 h_f(float v) { unsigned u; memcpy(&u, &v, 4); return u; }
static double mk_d(u64 e) { return (double)(e % 1000003) / 16.0; }
static u64 h_d(double v) { u64 u; memcpy(&u, &v, 8); return u; }
static long double mk_ld(u64 e) { return (long double)(e % 1000003) / 3.0L; }
static u64 h_ld(long double v) {
  double d = (double)v;
  return mix(h_d(d), h_d((double)(v - (long double)d)));
}
static __int128 mk_i128(u64 e) {
  return (__int128)(((unsigned __int128)e << 64) | (unsigned __int128)(e * 7u));
}
static u64 h_i128(__int128 v) {
  unsigned __int128 u = (unsigned __int128)v;
  return mix((u64)u, (u64)(u >> 64));
}
static _Complex double mk_cd(u64 e) {
  _Complex double z;
  __real__ z = (double)(e % 1000) / 4.0;
  __imag__ z = (double)(e % 777) / 8.0;
  return z;
}
static u64 h_cd(_Complex double z) { return mix(h_d(__real__ z), h_d(__imag__ z)); }
static const long *mk_p(u64 e) { return &ro[e & 63]; }
static u64 h_p(const long *p) { return p ? (u64)(p - ro) * 1000003u + (u64)*p : 0x9e3779b97f4a7c15ULL; }
typedef struct S2 { long a; int b; } S2;
static S2 mk_S2(u64 e) { S2 s; s.a = (long)e; s.b = (int)(e >> 7); return s; }
static u64 h_S2(S2 s) { return mix((u64)s.a, (u64)(unsigned)s.b); }
typedef struct S3 { char c; short s; float f; } S3;
static S3 mk_S3(u64 e) { S3 s; s.c = (char)e; s.s = (short)(e >> 8); s.f = mk_f(e >> 3); return s; }
static u64 h_S3(S3 s) { return mix(mix((u64)(unsigned char)s.c, (u64)(unsigned short)s.s), h_f(s.f)); }
typedef struct SF { float a, b; } SF;
static SF mk_SF(u64 e) { SF s; s.a = mk_f(e); s.b = mk_f(e >> 9); return s; }
static u64 h_SF(SF s) { return mix(h_f(s.a), h_f(s.b)); }
typedef struct SD { double a; long b; } SD;
static SD mk_SD(u64 e) { SD s; s.a = mk_d(e); s.b = (long)(e >> 3); return s; }
static u64 h_SD(SD s) { return mix(h_d(s.a), (u64)s.b); }
typedef union U8 { long l; double d; } U8;
static U8 mk_U8(u64 e) { U8 u; u.l = (long)(e & 0x7fffffffffffffULL); return u; }
static u64 h_U8(U8 u) { return (u64)u.l; }
typedef struct SL { long v[8]; } SL;
static SL mk_SL(u64 e) { SL s; for (int i = 0; i < 8; i++) s.v[i] = (long)(e * (u64)(i + 1)); return s; }
static u64 h_SL(SL s) { u64 h = 0; for (int i = 0; i < 8; i++) h = mix(h, (u64)s.v[i]); return h; }
#ifdef __cplusplus
#define SMITH_AL64 alignas(64)
#else
#define SMITH_AL64 _Alignas(64)
#endif
typedef struct SA { SMITH_AL64 long x; int y; } SA;
static SA mk_SA(u64 e) { SA s; s.x = (long)(e ^ 0x5a5a); s.y = (int)(e >> 11); return s; }
static u64 h_SA(SA s) { return mix((u64)s.x, (u64)(unsigned)s.y); }
typedef struct M2 { u64 a, b, c, d; } M2;
static M2 m2_id(void) { M2 m = {1, 0, 0, 1}; return m; }
static M2 m2_mul(M2 x, M2 y) {
  M2 z = {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  return z;
}
static M2 m2_of(u64 k) { M2 m = {1, k, k & 7, 1}; return m; }
static u64 h_M2(M2 m) { return mix(mix(m.a, m.b), mix(m.c, m.d)); }
/* C reducers: an ordered (non-commutative) monoid, and one whose views own heap memory. */
static void m2_identity(void *v) { *(M2 *)v = m2_id(); }
static void m2_reduce(void *l, void *r) { *(M2 *)l = m2_mul(*(M2 *)l, *(M2 *)r); }
static const ws_monoid m2_monoid = {sizeof(M2), sizeof(u64), m2_identity, m2_reduce, NULL, 0};
typedef struct LB { long *p; long n; } LB;
static void lb_identity(void *v) { ((LB *)v)->p = NULL; ((LB *)v)->n = 0; }
static void lb_push(LB *b, long x) {
  b->p = (long *)realloc(b->p, (size_t)(b->n + 1) * sizeof(long));
  b->p[b->n++] = x;
}
static void lb_reduce(void *l, void *r) {
  LB *a = (LB *)l, *b = (LB *)r;
  for (long i = 0; i < b->n; i++) lb_push(a, b->p[i]);
}
static void lb_destroy(void *v) { free(((LB *)v)->p); ((LB *)v)->p = NULL; }
static const ws_monoid lb_monoid = {sizeof(LB), sizeof(long), lb_identity, lb_reduce, lb_destroy, 0};
static u64 h_LB(LB b) { u64 h = (u64)b.n; for (long i = 0; i < b.n; i++) h = mix(h, (u64)b.p[i]); return h; }

static std::atomic<long> g_live{0};
struct Obj {
  long v;
  Obj() : v(0) { g_live++; }
  explicit Obj(long x) : v(x) { g_live++; }
  Obj(const Obj &o) : v(o.v) { g_live++; }
  Obj(Obj &&o) noexcept : v(o.v) { g_live++; }
  Obj &operator=(const Obj &o) { v = o.v; return *this; }
  Obj &operator=(Obj &&o) noexcept { v = o.v; return *this; }
  ~Obj() { g_live--; }
};
static Obj mk_Obj(u64 e) { return Obj((long)(e >> 1)); }
static u64 h_Obj(const Obj &o) { return (u64)o.v; }
struct MO {
  std::unique_ptr<long> p;
  MO() {}
  explicit MO(long x) : p(new long(x)) {}
  MO(MO &&) = default;
  MO &operator=(MO &&) = default;
};
static MO mk_MO(u64 e) { return MO((long)(e >> 2)); }
static u64 h_MO(const MO &m) { return m.p ? (u64)*m.p : 0x55; }
static std::string mk_str(u64 e) {
  std::string s;
  int n = (int)(e % 41);
  for (int i = 0; i < n; i++) s.push_back((char)('a' + (char)((e >> (i % 48)) % 26)));
  return s;
}
static u64 h_str(const std::string &s) {
  u64 h = s.size();
  for (char c : s) h = mix(h, (u64)(unsigned char)c);
  return h;
}
static std::vector<long> mk_vec(u64 e) {
  std::vector<long> v;
  int n = (int)(e % 19);
  for (int i = 0; i < n; i++) v.push_back((long)(e >> i));
  return v;
}
static u64 h_vec(const std::vector<long> &v) {
  u64 h = v.size();
  for (long x : v) h = mix(h, (u64)x);
  return h;
}
struct Err {
  Obj o;
  long v;
};
struct M2mon {
  using value_type = M2;
  static M2 identity() { return m2_id(); }
  static void reduce(M2 &l, M2 &r) { l = m2_mul(l, r); }
};

long c3_f9(Obj a0, char a1, char a2, unsigned long a3) {
  u64 acc = 0x172f39588508ULL;
  acc = mix(acc, h_Obj(a0));
  acc = mix(acc, (u64)(unsigned char)(a1));
  acc = mix(acc, (u64)(unsigned char)(a2));
  acc = mix(acc, (u64)(a3));
  return (long)(acc);
}

/* ---- case 122 ---- */

const long * c122_f3(char a0, __int128 a1) {
  u64 acc = 0x74b658af2570ULL;
  acc = mix(acc, (u64)(unsigned char)(a0));
  acc = mix(acc, h_i128(a1));
  if (acc % 4 == 1)
    throw Err{Obj((long)(acc >> 3)), (long)(acc % 1000)};
  return mk_p(acc);
}

struct c122_C4 {
  u64 k;
  const long * get(char a0, __int128 a1) const { return mk_p(mix(k, h_p(c122_f3(a0, a1)))); }
};

short c122_f7(__int128 a0, MO a1) {
  u64 acc = 0x58026f492576ULL;
  acc = mix(acc, h_i128(a0));
  acc = mix(acc, h_MO(a1));
  return (short)(acc);
}

const long * c122_f10(S3 a0, long a1, bool a2) {
  u64 acc = 0x2f71c78db209ULL;
  acc = mix(acc, h_S3(a0));
  acc = mix(acc, (u64)(a1));
  acc = mix(acc, (u64)(a2));
  return mk_p(acc);
}

static long double c122_f12(const long * const &a0) {
  u64 acc = 0x149fef3b03bfULL;
  acc = mix(acc, h_p(a0));
  if (acc % 4 == 1)
    throw Err{Obj((long)(acc >> 3)), (long)(acc % 1000)};
  return mk_ld(acc);
}

static int c122_f18(unsigned short a0, bool const &a1, S3 a2) {
  u64 acc = 0xde63bcb097ceULL;
  acc = mix(acc, (u64)(a0));
  acc = mix(acc, (u64)(a1));
  acc = mix(acc, h_S3(a2));
  if (acc % 4 == 1)
    throw Err{Obj((long)(acc >> 3)), (long)(acc % 1000)};
  return (int)(acc);
}

template <class X> int c122_T19(X a0, bool const &a1, S3 a2) { return c122_f18(a0, a1, a2); }

Obj c122_f21(_Complex double a0, long a1, SF a2) {
  u64 acc = 0xb7b9593e4178ULL;
  acc = mix(acc, h_cd(a0));
  acc = mix(acc, (u64)(a1));
  acc = mix(acc, h_SF(a2));
  return mk_Obj(acc);
}

static long c122_f24() {
  u64 acc = 0xe4623fd7c253ULL;
  if (acc % 3 == 1)
    throw Err{Obj((long)(acc >> 3)), (long)(acc % 1000)};
  return (long)(acc);
}

static long c122_f25() {
  u64 acc = 0x1f7e3ec058f6ULL;
  if (acc % 2 == 0)
    throw Err{Obj((long)(acc >> 3)), (long)(acc % 1000)};
  return (long)(acc);
}

static unsigned short c122_f26(signed char a0, bool a1) {
  u64 acc = 0xc0845a46d165ULL;
  acc = mix(acc, (u64)(unsigned char)(a0));
  acc = mix(acc, (u64)(a1));
  return (unsigned short)(acc);
}

static unsigned short c122_f28(signed char a0) {
  u64 acc = 0xaf283eff12e8ULL;
  acc = mix(acc, (u64)(unsigned char)(a0));
  return (unsigned short)(acc);
}

static int c122_f16(unsigned short a0) {
  u64 acc = 0xe8c4ca5a7080ULL;
  acc = mix(acc, (u64)(a0));
  {
    struct { long pad; int f[1]; char c; } c122_st17;
    c122_st17.pad = 1; c122_st17.c = 2;
    for (int j = 0; j < 1; j++) c122_st17.f[j] = (int)((u64)j);
    bool c122_cr20 = ((0x853a6ea07e9eULL) & 1) != 0;
    ws_spawn(c122_st17.f[0], c122_T19<unsigned short>, (unsigned short)(mix(acc, 0x649ef73dbab8ULL)), c122_cr20, mk_S3(0xb75c4d0fe1baULL));
    SF c122_v22 = mk_SF(mix(acc, 0xbb70b6e57df2ULL));
    acc = mix(acc, h_Obj(c122_f21(mk_cd(mix(acc, 0x6f4a010cfc1eULL)), (long)(mix(acc, 0xb89b85c89946ULL)), c122_v22)));
    ws_sync();
    for (int j = 0; j < 1; j++) acc = mix(acc, (u64)(unsigned)(c122_st17.f[j]));
    acc = mix(acc, (u64)(c122_st17.pad + c122_st17.c));
  }
  return (int)(acc);
}

struct c122_C29 {
  static int run(unsigned short a0) { return c122_f16(a0); }
};

static bool c122_f31(unsigned a0, S2 a1) {
  u64 acc = 0xba61adbdad5bULL;
  acc = mix(acc, (u64)(a0));
  acc = mix(acc, h_S2(a1));
  if (acc % 2 == 1)
    throw Err{Obj((long)(acc >> 3)), (long)(acc % 1000)};
  return ((acc) & 1) != 0;
}

static bool c122_f32(unsigned a0, S2 a1) {
  u64 acc = 0xa2c934545740ULL;
  acc = mix(acc, (u64)(a0));
  acc = mix(acc, h_S2(a1));
  if (acc % 4 == 1)
    throw Err{Obj((long)(acc >> 3)), (long)(acc % 1000)};
  return ((acc) & 1) != 0;
}

static void c122_rb35(long lo, long hi, void *ctx) {
  ws_reducer *r = (ws_reducer *)ctx;
  for (long i = lo; i < hi; i++) { M2 y = m2_of((u64)(mix((u64)i, 5))); m2_reduce(ws_reducer_view(r), &y); }
}

static u64 case122(void) {
  u64 h = 0xd4fa695890cbULL;
  try {
    h = mix(h, (u64)c122_f16((unsigned short)(0x5a4289078cf1ULL)));
  } catch (const Err &e) {
    h = mix(h, (u64)e.v + h_Obj(e.o));
  }
  return h;
}

int main(void) { long l0 = g_live.load(); u64 v = case122(); printf("case 122: %016llx live=%ld\n", v, g_live.load() - l0); return 0; }
