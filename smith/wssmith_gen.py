#!/usr/bin/env python3
"""ws-smith's generator: random, race-free task-parallel C and C++ programs.

A translation unit holds several independent test cases ("programs"), each
a function `caseK` returning a 64-bit checksum that main prints on a line
of its own ("case K: <hex>", with " live=<n>" in C++: the balance of the
counted class's constructors and destructors).  `./prog K` runs case K
alone.  Case K is generated from its own random stream, seeded by
(seed, K), and its helpers are named cK_*, so a translation unit holding
case K alone (--only K) holds exactly the same code for it: that is how a
failing case is reduced on its own.

Race-freedom by construction: a task writes only its own result, or memory
only it owns (a heap block, an element of an array no other task touches, a
reference to a variable the continuation leaves alone until the sync); the
continuation touches none of it until the ws_sync; shared data (the global
table `ro`, objects whose address a task receives) is read only while
tasks are outstanding.  Every value is a function of the seed: no address,
worker id or time reaches the output.

Every documented feature class is a switch (SWITCHES below; --enable,
--disable).  Those whose bugs are open are off by default in the driver
(smith/known-bugs.conf), not here.

Standard library only.
"""
import argparse
import random
import sys

# name: (default, description).  Every class of feature the generator can
# emit.  docs/smith.md lists them.
SWITCHES = {
    # types
    'long_double': (True, '`long double` arguments and results'),
    'int128': (True, '`__int128` arguments and results'),
    'complex': (True, '`_Complex double` arguments and results'),
    'pointers': (True, 'pointer arguments and results (into a read-only table)'),
    'small_structs': (True, 'small structs (<= 16 bytes, INTEGER/SSE/mixed classes) and a union by value'),
    'large_structs': (True, 'a 64-byte struct by value (over the 48-byte slot payload)'),
    'overaligned': (True, '`_Alignas(64)` structs as results and locals'),
    'overaligned_args': (True, '`_Alignas(64)` structs as by-value arguments'),
    'class_types': (True, 'C++ class with counted constructors/destructors (live count must end at 0)'),
    'move_only': (True, 'C++ move-only results (and arguments passed with std::move)'),
    'strings': (True, 'C++ std::string arguments and results'),
    'vectors': (True, 'C++ std::vector<long> arguments and results'),
    'cref_args': (True, 'C++ const-reference parameters bound to the caller\'s objects'),
    # callables
    'static_fn': (True, 'static functions'),
    'fn_pointers': (True, 'function pointers, and `c ? f : g`'),
    'variadic': (True, 'variadic functions'),
    'lambdas': (True, 'C++ lambdas without captures'),
    'lambda_captures': (True, 'C++ lambdas with captures (by value, by reference)'),
    'functors': (True, 'C++ function objects'),
    'std_function': (True, 'C++ std::function'),
    'static_members': (True, 'C++ static member functions'),
    'member_pointers': (True, 'C++ pointer to member function with the object pointer'),
    'templates': (True, 'C++ function template instantiations'),
    # result destinations
    'dest_array': (True, 'results into array elements'),
    'dest_field': (True, 'results into struct fields'),
    'dest_global': (True, 'results into globals'),
    'dest_heap': (True, 'results into heap memory'),
    'out_params': (True, 'void spawns writing through a pointer (C) or reference (C++) to memory the task owns'),
    'mutate_after_spawn': (True, 'the parent changes a by-value argument\'s variable after the spawn'),
    # placement
    'loops': (True, 'spawns in for/while/do-while loops, with break/continue'),
    'loop_sync': (True, 'a ws_sync inside each iteration'),
    'class_results_loops': (True, 'C++ class-type results of spawns in loops'),
    'loop_body_locals': (True, 'a loop body\'s own arrays and objects used by its tasks (synced per iteration)'),
    'branches': (True, 'spawns in if/else and switch branches'),
    'block_locals': (True, 'block-scope arrays and objects a task uses, dying before the sync'),
    'vla_dies': (True, 'VLAs a task uses, dying before the sync'),
    'cleanup_dies': (True, '`__attribute__((cleanup))` variables a task uses, dying before the sync'),
    'goto_out': (True, 'goto out of a block with outstanding tasks'),
    'computed_goto': (True, 'computed goto (`goto *p`) out of a block with outstanding tasks'),
    'early_return': (True, 'early returns with outstanding spawns'),
    'recursion': (True, 'fib-like recursion of bounded depth'),
    'nested': (True, 'spawning functions called and spawned from tasks'),
    'ws_for': (True, 'ws_for (C API)'),
    'parallel_for': (True, 'C++ ws::parallel_for'),
    'parallel_reduce': (True, 'C++ ws::parallel_reduce, both forms'),
    'reducers': (True, 'C reducers: every built-in monoid, and an ordered user monoid'),
    'reducer_heap_views': (True, 'C reducers: an ordered user monoid whose views own heap memory (realloc, destroy)'),
    'reducers_cxx': (True, 'C++ ws::reducer: sum/min/max, append of std::string and std::vector, a user monoid'),
    'threads': (True, 'calls of spawning functions from pthreads'),
    'errno_threads': (True, 'errno set by a spawning function called from a pthread'),
    'thread_exceptions': (True, 'C++: exceptions out of spawning calls made from pthreads'),
    'exceptions': (True, 'C++: tasks that throw, try/catch at several levels'),
    'own_throw': (True, 'C++: the function throws its own exception while tasks are outstanding'),
    'noexcept_catch': (True, 'C++: noexcept functions catching their tasks\' exceptions'),
    'coro': (True, 'C++20 coroutine (generator) with spawns synced before co_yield'),
    'coro_outstanding': (True, 'C++20 coroutine with spawns outstanding at co_yield'),
    # checks, not code: when off, the driver runs the -fws-race build only on
    # the cases without these features (each case alone)
    'race_coro': (True, 'the -fws-race build runs the cases with coroutines'),
    'race_heap_views': (True, 'the -fws-race build runs the cases with reducers whose views own heap memory'),
    'set_workers': (True, 'ws_set_num_workers in main'),
}

C_PRELUDE = r'''
#include <ws/ws.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
'''

CXX_PRELUDE = r'''
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
'''

COMMON = r'''
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
'''

CXX_COMMON = r'''
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
'''

CORO = r'''
#include <coroutine>
struct Gen {
  struct promise_type {
    u64 cur = 0;
    Gen get_return_object() { return Gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(u64 v) { cur = v; return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Gen(std::coroutine_handle<promise_type> c) : h(c) {}
  Gen(Gen &&o) noexcept : h(o.h) { o.h = nullptr; }
  ~Gen() { if (h) h.destroy(); }
  bool next() { h.resume(); return !h.done(); }
  u64 value() const { return h.promise().cur; }
};
'''


# --focus SWITCH: the segments that exercise a switch, made 20 times likelier
# (and its feature forced where it is a chance), to test one switch.
FOCUS = {
    'vla_dies': ['vla'], 'cleanup_dies': ['cleanup'], 'computed_goto': ['cgoto'],
    'goto_out': ['goto'], 'block_locals': ['block'], 'early_return': ['early'],
    'recursion': ['rec'], 'loops': ['loop'], 'loop_sync': ['loop'], 'loop_body_locals': ['loop'],
    'class_results_loops': ['loop'], 'branches': ['branch'], 'ws_for': ['wsfor'],
    'parallel_for': ['pfor'], 'parallel_reduce': ['preduce'], 'reducers': ['reducer'],
    'reducer_heap_views': ['reducer'], 'reducers_cxx': ['reducer_cxx'], 'threads': ['threads'],
    'errno_threads': ['threads'], 'thread_exceptions': ['threads'], 'exceptions': ['try'],
    'own_throw': ['try'], 'noexcept_catch': ['noexcept'], 'coro': ['coro'],
    'coro_outstanding': ['coro_out'],
}


class Ty:
    def __init__(self, key, cname, cxxname, mk, h, sw=None, cls=False,
                 moveonly=False, va=False, cxx_only=False, vec_ok=True):
        self.key, self.cname, self.cxxname = key, cname, cxxname
        self.mk_t, self.h_t = mk, h
        self.sw, self.cls, self.moveonly, self.va = sw, cls, moveonly, va
        self.cxx_only = cxx_only
        self.vec_ok = vec_ok  # may be a std::vector element

    def name(self, cxx):
        return self.cxxname if cxx else self.cname

    def mk(self, e):
        return self.mk_t.format(e=e)

    def h(self, v):
        return self.h_t.format(v=v)


TYPES = [
    Ty('char', 'char', 'char', '(char)({e})', '(u64)(unsigned char)({v})'),
    Ty('schar', 'signed char', 'signed char', '(signed char)({e})', '(u64)(unsigned char)({v})'),
    Ty('bool', '_Bool', 'bool', '(({e}) & 1) != 0', '(u64)({v})', vec_ok=False),
    Ty('short', 'short', 'short', '(short)({e})', '(u64)(unsigned short)({v})'),
    Ty('ushort', 'unsigned short', 'unsigned short', '(unsigned short)({e})', '(u64)({v})'),
    Ty('int', 'int', 'int', '(int)({e})', '(u64)(unsigned)({v})', va=True),
    Ty('uint', 'unsigned', 'unsigned', '(unsigned)({e})', '(u64)({v})'),
    Ty('long', 'long', 'long', '(long)({e})', '(u64)({v})', va=True),
    Ty('ulong', 'unsigned long', 'unsigned long', '(unsigned long)({e})', '(u64)({v})'),
    Ty('llong', 'long long', 'long long', '(long long)({e})', '(u64)({v})'),
    Ty('float', 'float', 'float', 'mk_f({e})', 'h_f({v})'),
    Ty('double', 'double', 'double', 'mk_d({e})', 'h_d({v})', va=True),
    Ty('ldouble', 'long double', 'long double', 'mk_ld({e})', 'h_ld({v})', sw='long_double'),
    Ty('i128', '__int128', '__int128', 'mk_i128({e})', 'h_i128({v})', sw='int128'),
    Ty('cdouble', '_Complex double', '_Complex double', 'mk_cd({e})', 'h_cd({v})', sw='complex'),
    Ty('ptr', 'const long *', 'const long *', 'mk_p({e})', 'h_p({v})', sw='pointers'),
    Ty('S2', 'S2', 'S2', 'mk_S2({e})', 'h_S2({v})', sw='small_structs'),
    Ty('S3', 'S3', 'S3', 'mk_S3({e})', 'h_S3({v})', sw='small_structs'),
    Ty('SF', 'SF', 'SF', 'mk_SF({e})', 'h_SF({v})', sw='small_structs'),
    Ty('SD', 'SD', 'SD', 'mk_SD({e})', 'h_SD({v})', sw='small_structs'),
    Ty('U8', 'U8', 'U8', 'mk_U8({e})', 'h_U8({v})', sw='small_structs'),
    Ty('SL', 'SL', 'SL', 'mk_SL({e})', 'h_SL({v})', sw='large_structs'),
    Ty('SA', 'SA', 'SA', 'mk_SA({e})', 'h_SA({v})', sw='overaligned'),
    Ty('Obj', None, 'Obj', 'mk_Obj({e})', 'h_Obj({v})', sw='class_types', cls=True, cxx_only=True),
    Ty('MO', None, 'MO', 'mk_MO({e})', 'h_MO({v})', sw='move_only', cls=True, moveonly=True, cxx_only=True),
    Ty('str', None, 'std::string', 'mk_str({e})', 'h_str({v})', sw='strings', cls=True, cxx_only=True),
    Ty('vec', None, 'std::vector<long>', 'mk_vec({e})', 'h_vec({v})', sw='vectors', cls=True, cxx_only=True),
]
TY = {t.key: t for t in TYPES}
SCALAR_KEYS = ['char', 'schar', 'bool', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'llong',
               'float', 'double']


class Param:
    """A parameter: a type, passed by value ('val') or by const reference ('cref', C++)."""
    def __init__(self, ty, mode='val'):
        self.ty, self.mode = ty, mode

    def decl(self, cxx, name):
        t = self.ty.name(cxx)
        if self.mode == 'cref':
            return '%s const &%s' % (t, name)
        return '%s %s' % (t, name)

    def use(self, name):
        """The parameter passed on to another function."""
        if self.ty.moveonly and self.mode == 'val':
            return 'std::move(%s)' % name
        return name


class Ctx:
    """Where code is being generated."""
    def __init__(self, hv, depth, top=False, in_loop=False, in_thread=False,
                 may_throw=False, in_try=False, in_coro=False):
        self.hv = hv            # the hash variable of this strand
        self.depth = depth      # nesting budget for spawning callees
        self.top = top          # the case function itself, run once: globals allowed
        self.in_loop = in_loop  # code repeated in a loop body
        self.in_thread = in_thread  # reached from a pthread: no reducers
        self.may_throw = may_throw  # callees spawned here may throw (C++)
        self.in_try = in_try
        self.in_coro = in_coro

    def sub(self, **kw):
        c = Ctx(self.hv, self.depth, self.top, self.in_loop, self.in_thread,
                self.may_throw, self.in_try, self.in_coro)
        for k, v in kw.items():
            setattr(c, k, v)
        return c


def indent(lines, n=1):
    pad = '  ' * n
    return [pad + l if l else l for l in lines]


class Case:
    def __init__(self, tu, k):
        self.tu = tu
        self.k = k
        self.cxx = tu.cxx
        self.sw = tu.sw
        self.r = random.Random('%s:%d' % (tu.seed, k))
        self.p = 'c%d_' % k
        self.decls = []       # top-level definitions, in order
        self.n = 0
        self.features = set()
        self.spawns = 0       # spawn sites emitted (to bound the size)
        self.cgoto_used = False

    # ---- helpers ----
    def uid(self, base):
        self.n += 1
        return '%s%s%d' % (self.p, base, self.n)

    def on(self, sw):
        return self.sw.get(sw, False)

    def feat(self, f):
        self.features.add(f)

    def chance(self, p):
        return self.r.random() < p

    def salt(self):
        return '0x%xULL' % self.r.getrandbits(48)

    def tname(self, ty):
        return ty.name(self.cxx)

    def e(self, ctx, extra=None):
        """A u64 expression the parent can evaluate: its hash, an index, constants."""
        parts = [self.salt()]
        if ctx.hv and self.chance(0.6):
            parts = ['mix(%s, %s)' % (ctx.hv, self.salt())]
        if extra:
            parts.append('(u64)(%s) * %du' % (extra, self.r.randint(3, 99)))
        return ' + '.join(parts) if len(parts) > 1 else parts[0]

    # ---- types ----
    def types_ok(self, ctx, for_arg=False, for_result=False, in_loop=False, va=False):
        out = []
        for t in TYPES:
            if t.cxx_only and not self.cxx:
                continue
            if t.sw and not self.on(t.sw):
                continue
            if va and not t.va:
                continue
            if for_arg and t.key == 'SA' and not self.on('overaligned_args'):
                continue
            if for_arg and t.moveonly and not self.on('move_only'):
                continue
            if in_loop and t.cls and for_result and not self.on('class_results_loops'):
                continue
            out.append(t)
        return out

    def pick_type(self, ctx, **kw):
        ts = self.types_ok(ctx, **kw)
        # scalars a bit more often: they are the common case
        if self.chance(0.35):
            sc = [t for t in ts if t.key in SCALAR_KEYS]
            if sc:
                return self.r.choice(sc)
        return self.r.choice(ts)

    def pick_params(self, ctx, n, va=False):
        ps = []
        for _ in range(n):
            t = self.pick_type(ctx, for_arg=True, va=va)
            mode = 'val'
            if (self.cxx and not va and self.on('cref_args') and not t.moveonly
                    and self.chance(0.2)):
                mode = 'cref'
            ps.append(Param(t, mode))
        return ps

    # ---- callees ----
    def body_fn(self, ret, params, ctx, throws=False, spawning=None, variadic=False,
                static=None, noexcept=False, errno_set=False):
        """Define a function computing a hash of its arguments (and maybe of
        nested parallel work) and returning mk_R of it.  Returns its name."""
        name = self.uid('f')
        cxx = self.cxx
        if static is None:
            static = self.on('static_fn') and self.chance(0.5)
        if static:
            self.feat('static_fn')
        lines = []
        rt = self.tname(ret) if ret else 'void'
        if variadic:
            self.feat('variadic')
            sig = '%s%s %s(int n, ...)' % ('static ' if static else '', rt, name)
        else:
            sig = '%s%s %s(%s)' % ('static ' if static else '', rt, name,
                                   ', '.join(p.decl(cxx, 'a%d' % i) for i, p in enumerate(params))
                                   or ('void' if not cxx else ''))
        if noexcept:
            sig += ' noexcept'
        lines.append(sig + ' {')
        lines.append('  u64 acc = %s;' % self.salt())
        if variadic:
            lines.append('  va_list ap;')
            lines.append('  va_start(ap, n);')
            for i, p in enumerate(params):
                lines.append('  acc = mix(acc, %s);' % p.ty.h('va_arg(ap, %s)' % self.tname(p.ty)))
            lines.append('  va_end(ap);')
        else:
            for i, p in enumerate(params):
                lines.append('  acc = mix(acc, %s);' % p.ty.h('a%d' % i))
        if spawning is None:
            spawning = (ctx.depth > 0 and self.on('nested') and self.chance(0.3))
        if spawning and ctx.depth > 0:
            self.feat('nested')
            sub = Ctx('acc', ctx.depth - 1, top=False, in_loop=False, in_thread=ctx.in_thread,
                      may_throw=ctx.may_throw)
            lines += indent(self.segment(sub, small=self.chance(0.7)))
        if throws:
            lines.append('  if (acc %% %d == %d)' % (self.r.randint(2, 4), self.r.randint(0, 1)))
            lines.append('    throw Err{Obj((long)(acc >> 3)), (long)(acc % 1000)};')
        if errno_set:
            lines.append('  errno = (int)(acc % 100) + 1;')
        if ret:
            lines.append('  return %s;' % ret.mk('acc'))
        lines.append('}')
        self.decls.append('\n'.join(lines))
        return name

    def callable(self, ctx, ret, params, pre, spawning=None, allow_member=True):
        addr_ok = allow_member
        """A callable of signature ret(params): returns (fn_expr, n_extra_args_prefix).
        Definitions go to self.decls; locals it needs go to `pre` (lines before the spawn)."""
        cxx = self.cxx
        throws = ctx.may_throw and self.chance(0.6)
        if throws:
            self.feat('task_throws')
        forms = ['fn']
        if self.on('fn_pointers'):
            forms += ['fnptr', 'ternary']
        va_ok = all(p.ty.va and p.mode == 'val' for p in params) and params
        if self.on('variadic') and va_ok:
            forms += ['variadic'] * 2
        if cxx:
            for f, sw in (('lambda', 'lambdas'), ('lambda_cap', 'lambda_captures'),
                          ('functor', 'functors'), ('stdfn', 'std_function'),
                          ('static_member', 'static_members'), ('member_ptr', 'member_pointers'),
                          ('template', 'templates')):
                if self.on(sw) and (f != 'member_ptr' or allow_member):
                    forms.append(f)
        form = self.r.choice(forms)
        self.feat('callable_' + form)
        if form == 'variadic':
            name = self.body_fn(ret, params, ctx, throws=throws, spawning=spawning, variadic=True)
            return name, ['%d' % len(params)]
        name = self.body_fn(ret, params, ctx, throws=throws, spawning=spawning)
        rt = self.tname(ret) if ret else 'void'
        pdecl = ', '.join(p.decl(cxx, 'a%d' % i) for i, p in enumerate(params))
        ptypes = ', '.join(p.decl(cxx, '').strip() for p in params)
        call = '%s(%s)' % (name, ', '.join(p.use('a%d' % i) for i, p in enumerate(params)))
        if form == 'fn':
            return name, []
        if form == 'fnptr':
            fp = self.uid('fp')
            pre.append('%s (*%s)(%s) = %s;' % (rt, fp, ptypes or ('void' if not cxx else ''), name))
            return fp, []
        if form == 'ternary':
            other = self.body_fn(ret, params, ctx, throws=throws, spawning=False)
            return '(%s & %d) ? %s : %s' % (
                self.e(ctx) if not ctx.hv else '(' + ctx.hv + ')',
                1 << self.r.randint(0, 5), name, other), []
        # C++ only from here
        wrap_h = '%s' % call
        if form == 'lambda':
            return '[](%s) { return %s; }' % (pdecl, call), []
        if form == 'lambda_cap':
            caps, uses = [], []
            k = self.uid('k')
            pre.append('u64 %s = %s;' % (k, self.e(ctx)))
            caps.append(k)
            uses.append(k)
            if self.on('strings') and self.chance(0.4):
                s = self.uid('s')
                pre.append('std::string %s = mk_str(%s);' % (s, self.e(ctx)))
                caps.append(s)
                uses.append('h_str(%s)' % s)
            if addr_ok and self.chance(0.4):
                # by reference: a read-only local array
                a = self.uid('roa')
                pre.append('long %s[4] = {%d, %d, %d, %d};' % ((a,) + tuple(self.r.randint(0, 99) for _ in range(4))))
                caps.append('&' + a)
                uses.append('(u64)%s[%d]' % (a, self.r.randint(0, 3)))
            if self.chance(0.2):
                caps = ['='] if not any(c.startswith('&') for c in caps) else ['&']
                self.feat('lambda_default_capture')
            cap_h = uses[0]
            for u in uses[1:]:
                cap_h = 'mix(%s, %s)' % (cap_h, u)
            if ret is None:
                return '[%s](%s) { (void)(%s); %s; }' % (', '.join(caps), pdecl, cap_h, call), []
            return '[%s](%s) { return %s; }' % (
                ', '.join(caps), pdecl, ret.mk('mix(%s, %s)' % (cap_h, ret.h(call)))), []
        if form == 'functor':
            f = self.uid('F')
            body = ('return %s;' % ret.mk('mix(k, %s)' % ret.h(call))) if ret else '(void)k; %s;' % call
            self.decls.append('struct %s {\n  u64 k;\n  %s operator()(%s) const { %s }\n};' % (f, rt, pdecl, body))
            return '%s{%s}' % (f, self.salt()), []
        if form == 'stdfn':
            v = self.uid('fv')
            pre.append('std::function<%s(%s)> %s = %s;' % (rt, ptypes, v, name))
            return v, []
        if form == 'static_member':
            c = self.uid('C')
            self.decls.append('struct %s {\n  static %s run(%s) { return %s; }\n};' % (c, rt, pdecl, call))
            return self.r.choice(['%s::run' % c, '&%s::run' % c]), []
        if form == 'member_ptr':
            c = self.uid('C')
            o = self.uid('o')
            body = ('return %s;' % ret.mk('mix(k, %s)' % ret.h(call))) if ret else '(void)k; %s;' % call
            const = self.chance(0.5)
            self.decls.append('struct %s {\n  u64 k;\n  %s get(%s)%s { %s }\n};' % (
                c, rt, pdecl, ' const' if const else '', body))
            pre.append('%s%s %s{%s};' % ('const ' if const else '', c, o, self.salt()))
            self.feat('addr_local')
            return '&%s::get, &%s' % (c, o), []
        if form == 'template':
            t = self.uid('T')
            if not params:
                self.decls.append('template <class R> R %s() { return %s; }' % (t, call))
                return '%s<%s>' % (t, rt), []
            p0 = params[0]
            tp = ', '.join(['%s a0' % ('X const &' if p0.mode == 'cref' else 'X')] +
                           [p.decl(cxx, 'a%d' % i) for i, p in enumerate(params) if i > 0])
            self.decls.append('template <class X> %s %s(%s) { return %s; }' % (rt, t, tp, call))
            return '%s<%s>' % (t, self.tname(p0.ty)), []
        raise AssertionError(form)

    def args_for(self, ctx, params, pre, post, idx=None, addr_ok=True):
        """Argument expressions for params.  Lines before the spawn go to pre,
        lines after it (the parent changing its by-value variables) to post."""
        out = []
        for p in params:
            t = p.ty
            e = self.e(ctx, idx)
            if p.mode == 'cref':
                # the task reads the caller's object: read-only until the sync
                v = self.uid('cr')
                pre.append('%s %s = %s;' % (self.tname(t), v, t.mk(e)))
                self.feat('cref_arg')
                self.feat('addr_local')
                out.append(v)
            elif t.moveonly:
                v = self.uid('mv')
                pre.append('%s %s = %s;' % (self.tname(t), v, t.mk(e)))
                out.append('std::move(%s)' % v)
                if self.on('mutate_after_spawn') and self.chance(0.5):
                    post.append('%s = %s;' % (v, t.mk(self.salt())))
                self.feat('moveonly_arg')
            elif self.on('mutate_after_spawn') and self.chance(0.3):
                v = self.uid('v')
                pre.append('%s %s = %s;' % (self.tname(t), v, t.mk(e)))
                out.append(v)
                post.append('%s = %s;' % (v, t.mk(self.salt())))
                self.feat('mutate_after_spawn')
            else:
                out.append(t.mk(e))
        return out

    def spawn(self, ctx, ret, dest, pre, post, idx=None, nparams=None, addr_ok=True):
        """One ws_spawn of a fresh callee into dest (an lvalue of type ret)."""
        if nparams is None:
            nparams = self.r.choice([1, 1, 2, 2, 3, 4] + ([0] if self.cxx else []))
        params = self.pick_params(ctx, nparams)
        if not addr_ok:
            params = [p if p.mode == 'val' else Param(p.ty, 'val') for p in params]
        self.spawns += 1
        self.feat('res_' + ret.key)
        for p in params:
            self.feat('arg_' + p.ty.key)
        if (self.on('out_params') and self.chance(0.15)):
            # a void spawn writing the result through a pointer / reference
            self.feat('out_param')
            name = self.uid('w')
            inner = self.body_fn(ret, params, ctx, throws=ctx.may_throw and self.chance(0.5))
            cxx = self.cxx
            pdecl = ', '.join(p.decl(cxx, 'a%d' % i) for i, p in enumerate(params))
            call = '%s(%s)' % (inner, ', '.join(p.use('a%d' % i) for i, p in enumerate(params)))
            ref = cxx and self.chance(0.5)
            if ref:
                self.decls.append('static void %s(%s &out%s) { out = %s; }' % (
                    name, self.tname(ret), (', ' + pdecl) if pdecl else '', call))
                # a plain lvalue binds the reference only on the plain-call path
                # (every argument trivially copyable); else std::ref, as for std::thread
                plain = all(not p.ty.cls or p.mode == 'cref' for p in params)
                target = self.r.choice(['std::ref(%s)' % dest, dest]) if plain else 'std::ref(%s)' % dest
            else:
                self.decls.append('static void %s(%s *out%s) { *out = %s; }' % (
                    name, self.tname(ret), (', ' + pdecl) if pdecl else '', call))
                target = '&' + dest
            args = self.args_for(ctx, params, pre, post, idx, addr_ok)
            return ['ws_spawn_void(%s);' % ', '.join([name, target] + args)]
        fn, prefix = self.callable(ctx, ret, params, pre, allow_member=addr_ok)
        args = self.args_for(ctx, params, pre, post, idx, addr_ok)
        return ['ws_spawn(%s);' % ', '.join([dest, fn] + prefix + args)]

    # ---- destinations ----
    def dest(self, ctx, ty, n=None, pro=None):
        """Declare storage for one result (n None) or n results; returns
        (decl_lines, dest_fn(index_expr), fold_lines(hv), free_lines)."""
        tn = self.tname(ty)
        kinds = ['local']
        if n is not None:
            kinds = ['array']
        if self.on('dest_array') and n is None:
            kinds.append('array')
        if self.on('dest_field'):
            kinds.append('field')
        if self.on('dest_heap'):
            kinds.append('heap')
        if self.on('dest_global') and ctx.top and not ctx.in_loop and not ty.cls:
            kinds.append('global')
        kind = self.r.choice(kinds)
        self.feat('dest_' + kind)
        m = n if n is not None else 1
        init = lambda v: []
        if kind == 'local':
            v = self.uid('r')
            decl = ['%s %s%s;' % (tn, v, '{}' if self.cxx else '')]
            if not self.cxx:
                decl = ['%s %s = %s;' % (tn, v, ty.mk('0'))]
            return decl, (lambda i: v), (lambda hv: ['%s = mix(%s, %s);' % (hv, hv, ty.h(v))]), []
        if kind == 'array':
            v = self.uid('arr')
            off = self.r.randint(0, 2)
            decl = ['%s %s[%d];' % (tn, v, m + off)]
            if not ty.cls:
                decl.append('for (int j = 0; j < %d; j++) %s[j] = %s;' % (m + off, v, ty.mk('(u64)j')))
            fold = lambda hv: ['for (int j = 0; j < %d; j++) %s = mix(%s, %s);' % (m + off, hv, hv, ty.h('%s[j]' % v))]
            return decl, (lambda i: '%s[%s]' % (v, i if n is not None else str(self.r.randint(0, off)))), fold, []
        if kind == 'field':
            v = self.uid('st')
            decl = ['struct { long pad; %s f[%d]; char c; } %s;' % (tn, m, v)]
            decl.append('%s.pad = 1; %s.c = 2;' % (v, v))
            if not ty.cls:
                decl.append('for (int j = 0; j < %d; j++) %s.f[j] = %s;' % (m, v, ty.mk('(u64)j')))
            fold = lambda hv: ['for (int j = 0; j < %d; j++) %s = mix(%s, %s);' % (m, hv, hv, ty.h('%s.f[j]' % v)),
                               '%s = mix(%s, (u64)(%s.pad + %s.c));' % (hv, hv, v, v)]
            return decl, (lambda i: '%s.f[%s]' % (v, i if n is not None else '0')), fold, []
        if kind == 'heap':
            v = self.uid('hp')
            if self.cxx:
                decl = ['std::unique_ptr<%s[]> %s(new %s[%d]);' % (tn, v, tn, m)]
                free = []
            else:
                decl = ['%s *%s = (%s *)malloc(%d * sizeof(%s));' % (tn, v, tn, m, tn)]
                free = ['free(%s);' % v]
            if not ty.cls:
                decl.append('for (int j = 0; j < %d; j++) %s[j] = %s;' % (m, v, ty.mk('(u64)j')))
            fold = lambda hv: ['for (int j = 0; j < %d; j++) %s = mix(%s, %s);' % (m, hv, hv, ty.h('%s[j]' % v))]
            return decl, (lambda i: '%s[%s]' % (v, i if n is not None else '0')), fold, free
        if kind == 'global':
            v = self.uid('g')
            self.decls.append('static %s %s[%d];' % (tn, v, m))
            decl = ['for (int j = 0; j < %d; j++) %s[j] = %s;' % (m, v, ty.mk('(u64)j'))]
            fold = lambda hv: ['for (int j = 0; j < %d; j++) %s = mix(%s, %s);' % (m, hv, hv, ty.h('%s[j]' % v))]
            return decl, (lambda i: '%s[%s]' % (v, i if n is not None else '0')), fold, []
        raise AssertionError(kind)

    # ---- serial work in the continuation ----
    def serial_work(self, ctx):
        """The parent calls a function (which may itself spawn) and hashes the result."""
        ret = self.pick_type(ctx, for_result=True)
        params = self.pick_params(ctx, self.r.randint(1, 3))
        params = [Param(p.ty, 'val') for p in params]
        name = self.body_fn(ret, params, ctx.sub(may_throw=False))
        pre, post = [], []
        args = self.args_for(ctx.sub(), params, pre, post)
        post = []  # no spawn here: nothing to change after
        return pre + ['%s = mix(%s, %s);' % (ctx.hv, ctx.hv, ret.h('%s(%s)' % (name, ', '.join(args))))]

    # ---- segments ----
    def segment(self, ctx, small=False):
        kinds = [('straight', 4)]
        def add(k, w, *sws):
            if all(self.on(s) for s in sws):
                kinds.append((k, w))
        if self.spawns > 40:
            small = True
        add('loop', 3, 'loops')
        add('branch', 2, 'branches')
        if not small:
            add('block', 2, 'block_locals')
            add('vla', 1, 'vla_dies')
            add('cleanup', 1, 'cleanup_dies')
            add('goto', 1, 'goto_out')
            if ctx.top and not self.cgoto_used:
                add('cgoto', 1, 'computed_goto')
            add('early', 1, 'early_return')
            add('rec', 2, 'recursion')
            add('wsfor', 2, 'ws_for')
            if not ctx.in_thread:
                add('reducer', 2, 'reducers')
            if ctx.top and not ctx.in_loop and not ctx.in_try:
                add('threads', 1, 'threads')
            if self.cxx:
                add('pfor', 2, 'parallel_for')
                add('preduce', 1, 'parallel_reduce')
                if not ctx.in_thread:
                    add('reducer_cxx', 2, 'reducers_cxx')
                if ctx.depth > 0:
                    add('try', 2, 'exceptions')
                    add('noexcept', 1, 'exceptions', 'noexcept_catch')
                if self.tu.coro:
                    add('coro', 1, 'coro')
                    add('coro_out', 1, 'coro_outstanding')
        kinds = [(k, w * 20 if k in self.tu.focus_segs else w) for k, w in kinds]
        tot = sum(w for _, w in kinds)
        x = self.r.uniform(0, tot)
        for k, w in kinds:
            x -= w
            if x <= 0:
                break
        self.feat('seg_' + k)
        return ['{'] + indent(getattr(self, 'seg_' + k)(ctx)) + ['}']

    def seg_straight(self, ctx):
        pro, body, folds, frees = [], [], [], []
        for _ in range(self.r.randint(1, 3)):
            ret = self.pick_type(ctx, for_result=True)
            d, dfn, fold, free = self.dest(ctx, ret)
            pro += d
            folds += fold(ctx.hv)
            frees += free
            pre, post = [], []
            sp = self.spawn(ctx, ret, dfn(None), pre, post)
            body += pre + sp + post
            if self.chance(0.4):
                body += self.serial_work(ctx)
        body.append('ws_sync();')
        return pro + body + folds + frees

    def seg_loop(self, ctx):
        n = self.r.randint(1, 24 if ctx.depth >= 1 else 8)
        lctx = ctx.sub(in_loop=True)
        ret = self.pick_type(lctx, for_result=True, in_loop=True)
        d, dfn, fold, free = self.dest(lctx, ret, n=n)
        i = self.uid('i')
        per_iter_sync = self.on('loop_sync') and self.chance(0.25)
        pro = list(d)
        pre, post = [], []
        body = []
        local_arr = self.on('loop_body_locals') and (self.chance(0.25) or 'loop_body_locals' in self.tu.focus)
        if local_arr:
            # the loop body's own array, read by its task: synced per iteration
            self.feat('loop_body_locals')
            la = self.uid('la')
            body.append('long %s[4];' % la)
            body.append('for (int j = 0; j < 4; j++) %s[j] = (long)(%s) + j;' % (la, i))
            rd = self.uid('rd')
            inner = self.body_fn(ret, [Param(TY['long']), Param(TY['ptr'])], lctx)
            self.decls.append('static %s %s(const long *p, long n) { return %s(n + p[0] + p[3], mk_p((u64)p[1])); }' % (
                self.tname(ret), rd, inner))
            sp = ['ws_spawn(%s, %s, %s, 4);' % (dfn(i), rd, la)]
        else:
            sp = self.spawn(lctx, ret, dfn(i), pre, post, idx=i,
                            addr_ok=self.on('loop_body_locals'))
        skip = []
        if self.chance(0.3):
            skip = ['if ((%s * %d + %d) %% %d == 0) %s;' % (
                i, self.r.randint(1, 9), self.r.randint(0, 9), self.r.randint(2, 5),
                self.r.choice(['continue', 'break']))]
            self.feat('loop_break_continue')
        body = skip + body + pre + sp + post
        if self.chance(0.3):
            body += self.serial_work(lctx)
        if per_iter_sync:
            self.feat('loop_sync')
            body.append('ws_sync();')
        form = self.r.choice(['for', 'while', 'do'])
        self.feat('loop_' + form)
        if form == 'for':
            loop = ['for (int %s = 0; %s < %d; %s++) {' % (i, i, n, i)] + indent(body) + ['}']
        elif form == 'while':
            # continue must not skip the increment: count at the top
            loop = ['int %s = -1;' % i, 'while (++%s < %d) {' % (i, n)] + indent(body) + ['}']
        else:
            loop = ['int %s = -1;' % i, 'do {', '  if (++%s >= %d) break;' % (i, n)] + indent(body) + \
                   ['} while (1);']
        return pro + loop + ['ws_sync();'] + fold(ctx.hv) + free

    def seg_branch(self, ctx):
        ret = self.pick_type(ctx, for_result=True)
        d, dfn, fold, free = self.dest(ctx, ret)
        out = list(d)
        sel = '(%s >> %d)' % (ctx.hv, self.r.randint(0, 40))
        def arm():
            pre, post = [], []
            sp = self.spawn(ctx, ret, dfn(None), pre, post, addr_ok=self.on('block_locals'))
            lines = pre + sp + post
            if self.chance(0.3):
                lines += self.serial_work(ctx)
            return lines
        if self.chance(0.5):
            self.feat('if_else')
            out += ['if (%s & 1) {' % sel] + indent(arm()) + ['} else {'] + indent(arm()) + ['}']
        else:
            self.feat('switch')
            k = self.r.randint(2, 4)
            out.append('switch (%s %% %d) {' % (sel, k + 1))
            for c in range(k):
                out += ['case %d: {' % c] + indent(arm()) + ['  break;', '}']
            out += ['default:', '  %s = mix(%s, 1);' % (ctx.hv, ctx.hv), '  break;', '}']
        out.append('ws_sync();')
        return out + fold(ctx.hv) + free

    def reader_fn(self, ctx, ret):
        """ret f(const long *p, long n, u64 x): reads p[0..n)."""
        name = self.uid('rd')
        inner = self.body_fn(ret, [Param(TY['long'])], ctx)
        self.decls.append(
            'static %s %s(const long *p, long n, u64 x) {\n  u64 s = x;\n'
            '  for (long j = 0; j < n; j++) s = mix(s, (u64)p[j]);\n  return %s((long)s);\n}' % (
                self.tname(ret), name, inner))
        return name

    def block_common(self, ctx, kind):
        ret = self.pick_type(ctx, for_result=True)
        d, dfn, fold, free = self.dest(ctx, ret)
        out = list(d)
        rd = self.reader_fn(ctx, ret)
        n = self.r.randint(1, 16)
        b = self.uid('b')
        blk = []
        if kind == 'vla':
            self.feat('vla')
            nv = self.uid('n')
            out.append('int %s = %d + (int)(%s & 1);' % (nv, n, ctx.hv))
            blk.append('long %s[%s];' % (b, nv))
            blk.append('for (int j = 0; j < %s; j++) %s[j] = (long)(%s) + j;' % (nv, b, self.e(ctx)))
            cnt = nv
        elif kind == 'cleanup':
            self.feat('cleanup')
            clr = self.uid('clr')
            self.decls.append('static void %s(long (*p)[%d]) { for (int j = 0; j < %d; j++) (*p)[j] = -1; }' % (clr, n, n))
            blk.append('long %s[%d] __attribute__((cleanup(%s)));' % (b, n, clr))
            blk.append('for (int j = 0; j < %d; j++) %s[j] = (long)(%s) + j;' % (n, b, self.e(ctx)))
            cnt = str(n)
        elif self.cxx and kind != 'array' and self.chance(0.4):
            self.feat('block_vector')
            blk.append('std::vector<long> %sv(%d);' % (b, n))
            blk.append('for (int j = 0; j < %d; j++) %sv[j] = (long)(%s) + j;' % (n, b, self.e(ctx)))
            blk.append('const long *%s = %sv.data();' % (b, b))
            cnt = str(n)
        else:
            self.feat('block_array')
            blk.append('long %s[%d];' % (b, n))
            blk.append('for (int j = 0; j < %d; j++) %s[j] = (long)(%s) + j;' % (n, b, self.e(ctx)))
            cnt = str(n)
        barg = '&%s[0]' % b if kind == 'vla' and (self.cxx or self.chance(0.5)) else b
        blk.append('ws_spawn(%s, %s, %s, %s, %s);' % (dfn(None), rd, barg, cnt, self.e(ctx)))
        return out, blk, fold, free

    def reuse_block(self, ctx):
        """A sibling block whose locals may take the dead block's stack."""
        o = self.uid('o')
        return ['{', '  long %s[16];' % o,
                '  for (int j = 0; j < 16; j++) %s[j] = -(long)j * 3;' % o,
                '  for (int j = 0; j < 16; j++) %s = mix(%s, (u64)%s[j]);' % (ctx.hv, ctx.hv, o), '}']

    def seg_block(self, ctx, kind='block'):
        out, blk, fold, free = self.block_common(ctx, kind)
        if self.chance(0.4):
            # a second task in the same block, using an object by reference
            ret2 = self.pick_type(ctx, for_result=True)
            d2, dfn2, fold2, free2 = self.dest(ctx, ret2)
            out += d2
            pre, post = [], []
            sp = self.spawn(ctx, ret2, dfn2(None), pre, post)
            blk += pre + sp + post
            fold_all = lambda hv: fold(hv) + fold2(hv)
            free += free2
        else:
            fold_all = fold
        return out + ['{'] + indent(blk) + ['}'] + self.reuse_block(ctx) + ['ws_sync();'] + fold_all(ctx.hv) + free

    def seg_vla(self, ctx):
        return self.seg_block(ctx, 'vla')

    def seg_cleanup(self, ctx):
        return self.seg_block(ctx, 'cleanup')

    def seg_goto(self, ctx, computed=False):
        out, blk, fold, free = self.block_common(ctx, 'array' if computed else 'block')
        if computed:
            self.cgoto_used = True
        ret2 = self.pick_type(ctx, for_result=True)
        d2, dfn2, fold2, free2 = self.dest(ctx, ret2)
        out += d2
        lab = self.uid('L')
        cond = '(%s >> %d) & 1' % (ctx.hv, self.r.randint(0, 30))
        if computed:
            self.feat('computed_goto')
            lab2 = self.uid('L')
            tbl = self.uid('tbl')
            blk.append('static void *const %s[2] = {&&%s, &&%s};' % (tbl, lab, lab2))
            blk.append('if (%s) goto *%s[(%s >> 3) & 1];' % (cond, tbl, ctx.hv))
        else:
            self.feat('goto_out')
            blk.append('if (%s) goto %s;' % (cond, lab))
        pre, post = [], []
        sp = self.spawn(ctx, ret2, dfn2(None), pre, post, addr_ok=self.on('block_locals') and not computed)
        blk += ['{'] + indent(pre + sp + post) + ['}']
        tail = ['%s:;' % lab]
        if computed:
            tail = ['%s:' % lab, '%s = mix(%s, 7);' % (ctx.hv, ctx.hv), '%s:;' % lab2]
        return out + ['{'] + indent(blk) + ['}'] + tail + ['ws_sync();'] + fold(ctx.hv) + fold2(ctx.hv) + free + free2

    def seg_cgoto(self, ctx):
        return self.seg_goto(ctx, computed=True)

    def seg_early(self, ctx):
        """A helper that returns early with spawns outstanding (implicit sync)."""
        ret = self.pick_type(ctx, for_result=True)
        m = self.r.randint(2, 5)
        name = self.uid('er')
        tn = self.tname(ret)
        lines = ['static void %s(%s *out, u64 k) {' % (name, tn)]
        sub = ctx.sub(top=False, in_loop=False, hv='k')
        for j in range(m):
            pre, post = [], []
            sp = self.spawn(sub, ret, 'out[%d]' % j, pre, post, addr_ok=self.on('block_locals'))
            lines += indent(['{'] + indent(pre + sp + post) + ['}'])
            if j < m - 1:
                lines.append('  if ((k >> %d) %% %d == 0) return;' % (self.r.randint(0, 40), self.r.randint(2, 4)))
        lines.append('}')
        self.decls.append('\n'.join(lines))
        self.feat('early_return')
        o = self.uid('out')
        out = ['%s %s[%d];' % (tn, o, m)]
        if not ret.cls:
            out.append('for (int j = 0; j < %d; j++) %s[j] = %s;' % (m, o, ret.mk('(u64)j')))
        out.append('%s(%s, %s);' % (name, o, self.e(ctx)))
        out.append('for (int j = 0; j < %d; j++) %s = mix(%s, %s);' % (m, ctx.hv, ctx.hv, ret.h('%s[j]' % o)))
        return out

    def rec_fn(self, ctx, ret, in_thread=False):
        """A fib-like recursive spawning function: R rec(int d, u64 x)."""
        name = self.uid('rec')
        tn = self.tname(ret)
        fib = self.chance(0.5)
        self.feat('recursion')
        lines = ['static %s %s(int d, u64 x) {' % (tn, name),
                 '  if (d <= 0) return %s;' % ret.mk('mix(x, %s)' % self.salt()),
                 '  %s a%s;' % (tn, '{}' if self.cxx else ''), '  %s b%s;' % (tn, '{}' if self.cxx else '')]
        how = self.r.choice(['direct', 'direct', 'fnptr'] + (['lambda'] if self.cxx and self.on('lambdas') else []))
        if how == 'fnptr' and self.on('fn_pointers'):
            lines.append('  %s (*self)(int, u64) = %s;' % (tn, name))
            fexpr = 'self'
        elif how == 'lambda':
            fexpr = '[](int dd, u64 xx) { return %s(dd, xx); }' % name
        else:
            fexpr = name
        lines.append('  ws_spawn(a, %s, d - 1, x * 3 + 1);' % fexpr)
        lines.append('  b = %s(d - %d, x * 5 + 2);' % (name, 2 if fib else 1))
        if self.chance(0.3):
            lines.append('  %s c%s;' % (tn, '{}' if self.cxx else ''))
            lines.append('  ws_spawn(c, %s, d - 2, x ^ 0x55);' % name)
            lines.append('  ws_sync();')
            lines.append('  return %s;' % ret.mk('mix(mix(%s, %s), %s)' % (ret.h('a'), ret.h('b'), ret.h('c'))))
        else:
            lines.append('  ws_sync();')
            lines.append('  return %s;' % ret.mk('mix(%s, %s)' % (ret.h('a'), ret.h('b'))))
        lines.append('}')
        if self.cxx:
            lines[0] = 'static %s %s(int d, u64 x);\n' % (tn, name) + lines[0]
        self.decls.append('\n'.join(lines))
        return name, (self.r.randint(3, 11) if fib else self.r.randint(2, 7))

    def seg_rec(self, ctx):
        ret = self.pick_type(ctx, for_result=True)
        name, depth = self.rec_fn(ctx, ret)
        d, dfn, fold, free = self.dest(ctx, ret)
        out = list(d)
        if self.chance(0.5):
            out.append('ws_spawn(%s, %s, %d, %s);' % (dfn(None), name, depth, self.e(ctx)))
            out.append('ws_sync();')
        else:
            out.append('%s = %s(%d, %s);' % (dfn(None), name, depth, self.e(ctx)))
        return out + fold(ctx.hv) + free

    def seg_wsfor(self, ctx):
        self.feat('ws_for')
        ret = self.pick_type(ctx, for_result=True)
        if ret.cls:
            ret = TY['long']
        tn = self.tname(ret)
        n = self.r.randint(1, 200)
        lo = self.r.randint(-5, 5)
        cty = self.uid('ctx_t')
        body = self.uid('body')
        self.decls.append('typedef struct %s { %s *out; const long *in; u64 salt; long lo; } %s;' % (cty, tn, cty))
        lines = ['static void %s(long lo, long hi, void *vc) {' % body,
                 '  %s *c = (%s *)vc;' % (cty, cty),
                 '  for (long i = lo; i < hi; i++) {',
                 '    u64 acc = mix(c->salt, (u64)i);',
                 '    acc = mix(acc, (u64)c->in[i & 63]);']
        if ctx.depth > 0 and self.on('nested') and self.chance(0.3):
            sub = Ctx('acc', ctx.depth - 1, in_thread=ctx.in_thread, may_throw=False)
            lines += indent(self.serial_work(sub), 2)
        lines += ['    c->out[i - c->lo] = %s;' % ret.mk('acc'), '  }', '}']
        self.decls.append('\n'.join(lines))
        o = self.uid('out')
        cv = self.uid('c')
        grain = self.r.choice(['0', '-1', '1', '2', '3', '7', '64', '1000', '(long)(%s & 3)' % ctx.hv])
        out = ['%s %s[%d];' % (tn, o, n),
               '%s %s = {%s, ro, %s, %d};' % (cty, cv, o, self.e(ctx), lo),
               'ws_for(%d, %d, %s, %s, &%s);' % (lo, lo + n, grain, body, cv),
               'for (int j = 0; j < %d; j++) %s = mix(%s, %s);' % (n, ctx.hv, ctx.hv, ret.h('%s[j]' % o))]
        return out

    def seg_pfor(self, ctx):
        self.feat('parallel_for')
        ret = self.pick_type(ctx, for_result=True)
        if not ret.vec_ok or ret.moveonly:
            ret = TY['long']
        tn = self.tname(ret)
        n = self.r.randint(1, 200)
        lo = self.r.randint(-5, 5)
        o = self.uid('out')
        s = self.uid('s')
        out = ['std::vector<%s> %s(%d);' % (tn, o, n), 'u64 %s = %s;' % (s, self.e(ctx))]
        inner = []
        if ctx.depth > 0 and self.on('nested') and self.chance(0.3):
            sub = Ctx('acc', ctx.depth - 1, in_thread=ctx.in_thread, may_throw=False)
            inner = self.serial_work(sub)
        cap = self.r.choice(['&', '&%s, %s' % (o, s)])
        lam = ['[%s](long lo, long hi) {' % cap, '  for (long i = lo; i < hi; i++) {',
               '    u64 acc = mix(%s, (u64)i);' % s] + indent(inner, 2) + \
              ['    %s[i - (%d)] = %s;' % (o, lo, ret.mk('acc')), '  }', '}']
        grain = self.r.choice(['', '0, ', '1, ', '5, ', '64, ', '-3, '])
        out.append('ws::parallel_for(%d, %d, %s' % (lo, lo + n, grain) + lam[0])
        out += indent(lam[1:-1]) + ['});']
        out.append('for (int j = 0; j < %d; j++) %s = mix(%s, %s);' % (n, ctx.hv, ctx.hv, ret.h('%s[j]' % o)))
        return out

    def seg_preduce(self, ctx):
        self.feat('parallel_reduce')
        n = self.r.randint(0, 300)
        lo = self.r.randint(-3, 3)
        grain = self.r.choice(['0', '1', '4', '33', '-1'])
        v = self.uid('pr')
        kind = self.r.choice(['sum', 'm2', 'str', 'reducer'])
        if kind == 'sum':
            out = ['u64 %s = ws::parallel_reduce(%d, %d, %s, (u64)0,' % (v, lo, lo + n, grain),
                   '  [](long a, long b, u64 init) { for (long i = a; i < b; i++) init += mix((u64)i, 3); return init; },',
                   '  [](u64 x, u64 y) { return x + y; });',
                   '%s = mix(%s, %s);' % (ctx.hv, ctx.hv, v)]
        elif kind == 'm2':
            self.feat('parallel_reduce_ordered')
            out = ['M2 %s = ws::parallel_reduce(%d, %d, %s, m2_id(),' % (v, lo, lo + n, grain),
                   '  [](long a, long b, M2 init) { for (long i = a; i < b; i++) init = m2_mul(init, m2_of((u64)i * 7)); return init; },',
                   '  [](M2 x, M2 y) { return m2_mul(x, y); });',
                   '%s = mix(%s, h_M2(%s));' % (ctx.hv, ctx.hv, v)]
        elif kind == 'str':
            self.feat('parallel_reduce_string')
            out = ['std::string %s = ws::parallel_reduce(%d, %d, %s, std::string(),' % (v, lo, lo + n, grain),
                   '  [](long a, long b, std::string init) { for (long i = a; i < b; i++) init.push_back((char)(\'a\' + (i & 15))); return init; },',
                   '  [](const std::string &x, const std::string &y) { return x + y; });',
                   '%s = mix(%s, h_str(%s));' % (ctx.hv, ctx.hv, v)]
        else:
            self.feat('parallel_reduce_reducer')
            mon, ty, upd, h = self.r.choice([
                ('ws::sum<long>', 'long', 'view += i * 3 + 1;', '(u64)%s.get()'),
                ('ws::max<long>', 'long', 'if ((i * 37) % 101 > view) view = (i * 37) % 101;', '(u64)%s.get()'),
                ('ws::append<std::string>', 'std::string', "view.push_back((char)('a' + (i % 26)));", 'h_str(%s.get())'),
                ('M2mon', 'M2', 'view = m2_mul(view, m2_of((u64)i));', 'h_M2(%s.get())'),
            ])
            if 'append' in mon:
                self.feat('heap_views')
            out = ['ws::reducer<%s> %s;' % (mon, v),
                   'ws::parallel_reduce(%d, %d, %s, %s, [](long a, long b, %s &view) {' % (lo, lo + n, grain, v, ty),
                   '  for (long i = a; i < b; i++) { %s }' % upd,
                   '});',
                   '%s = mix(%s, %s);' % (ctx.hv, ctx.hv, h % v)]
        return out

    def seg_reducer(self, ctx):
        """C API reducers: every built-in monoid, and the two user monoids."""
        self.feat('reducer_c')
        mons = [('sum', 'long'), ('min', 'long'), ('max', 'long'),
                ('sum', 'ulong'), ('min', 'ulong'), ('max', 'ulong'),
                ('sum', 'double'), ('min', 'double'), ('max', 'double'), ('m2', None)]
        if self.on('reducer_heap_views'):
            mons.append(('lb', None))
        op, tk = self.r.choice(mons)
        self.feat('reducer_%s_%s' % (op, tk))
        r = self.uid('rr')
        v = self.uid('rv')
        if op == 'm2':
            tn, init, monoid = 'M2', 'm2_id()', 'm2_monoid'
            upd = lambda rp, x: 'm2_reduce(ws_reducer_view(%s), &(M2){1, (u64)(%s), 3, 1});' % (rp, x) if not self.cxx else \
                '{ M2 y = m2_of((u64)(%s)); m2_reduce(ws_reducer_view(%s), &y); }' % (x, rp)
            h = 'h_M2(%s)' % v
        elif op == 'lb':
            self.feat('heap_views')
            tn, init, monoid = 'LB', '{NULL, 0}' if not self.cxx else '{nullptr, 0}', 'lb_monoid'
            upd = lambda rp, x: 'lb_push((LB *)ws_reducer_view(%s), (long)(%s));' % (rp, x)
            h = 'h_LB(%s)' % v
        else:
            ctn = {'long': 'long', 'ulong': 'unsigned long', 'double': 'double'}[tk]
            tn, monoid = ctn, 'ws_monoid_%s_%s' % (op, tk)
            init = str(self.r.randint(-50, 50)) if op == 'sum' and tk != 'ulong' else str(self.r.randint(0, 5000))
            conv = ('(' + ctn + ')((@) % 1000)') if tk == 'double' else \
                ('(' + ctn + ')((@) % 100000)') if (tk == 'long' and op == 'sum') else ('(' + ctn + ')(@)')
            def upd(rp, x, op=op, tk=tk, conv=conv, ctn=ctn):
                if self.chance(0.5):
                    return 'ws_reducer_%s_%s(%s, %s);' % (op, tk, rp, conv.replace('@', x))
                if op == 'sum':
                    return 'WS_VIEW(%s, %s) += %s;' % (ctn, rp, conv.replace('@', x))
                cmpo = '<' if op == 'min' else '>'
                return '{ %s *vw = (%s *)ws_reducer_view(%s); %s y = %s; if (y %s *vw) *vw = y; }' % (
                    ctn, ctn, rp, ctn, conv.replace('@', x), cmpo)
            h = {'long': '(u64)%s', 'ulong': '(u64)%s', 'double': 'h_d(%s)'}[tk] % v
        out = ['%s %s = %s;' % (tn, v, init), 'ws_reducer %s;' % r,
               'ws_reducer_register(&%s, &%s, &%s);' % (r, monoid, v)]
        how = self.r.choice(['rec', 'wsfor', 'spawns'])
        self.feat('reducer_by_' + how)
        if how == 'rec':
            f = self.uid('upd')
            g = self.r.randint(1, 8)
            lines = ['static void %s(ws_reducer *r, long lo, long hi) {' % f,
                     '  if (hi - lo <= %d) {' % g,
                     '    for (long i = lo; i < hi; i++) %s' % upd('r', 'mix((u64)i, 11)'),
                     '    return;', '  }',
                     '  long mid = lo + (hi - lo) / 2;',
                     '  ws_spawn_void(%s, r, lo, mid);' % f]
            if self.chance(0.5):
                lines.append('  %s' % upd('r', '(u64)mid * 13'))
            lines += ['  %s(r, mid, hi);' % f, '  ws_sync();']
            if self.chance(0.3):
                lines.append('  %s' % upd('r', '(u64)hi'))
            lines.append('}')
            self.decls.append('\n'.join(lines))
            n = self.r.randint(0, 300)
            out.append('%s(&%s, 0, %d);' % (f, r, n))
        elif how == 'wsfor':
            b = self.uid('rb')
            self.decls.append('static void %s(long lo, long hi, void *ctx) {\n'
                              '  ws_reducer *r = (ws_reducer *)ctx;\n'
                              '  for (long i = lo; i < hi; i++) %s\n}' % (b, upd('r', 'mix((u64)i, 5)')))
            n = self.r.randint(0, 300)
            out.append('ws_for(0, %d, %s, %s, &%s);' % (n, self.r.choice(['0', '1', '7', '50']), b, r))
        else:
            f = self.uid('ut')
            self.decls.append('static void %s(ws_reducer *r, u64 x, int k) {\n'
                              '  for (int i = 0; i < k; i++) %s\n}' % (f, upd('r', 'x + (u64)i')))
            for j in range(self.r.randint(1, 5)):
                out.append('ws_spawn_void(%s, &%s, %s, %d);' % (f, r, self.e(ctx), self.r.randint(1, 6)))
                if self.chance(0.5):
                    out.append(upd('&' + r, self.e(ctx)))
        out.append('ws_sync();')
        if self.chance(0.3):
            self.feat('reducer_get')
            out.append('%s = mix(%s, %s);' % (ctx.hv, ctx.hv, h.replace(v, '(*(%s *)ws_reducer_get(&%s))' % (tn, r))))
        out.append('ws_reducer_unregister(&%s);' % r)
        out.append('%s = mix(%s, %s);' % (ctx.hv, ctx.hv, h))
        if op == 'lb':
            out.append('free(%s.p);' % v)
        return out

    def seg_reducer_cxx(self, ctx):
        self.feat('reducer_cxx')
        mons = [('ws::sum<long>', 'long', '*R += (long)(X % 1000);', '(u64)R.get()'),
                ('ws::sum<unsigned long>', 'unsigned long', '*R += (unsigned long)X;', '(u64)R.get()'),
                ('ws::sum<double>', 'double', '*R += (double)(X % 1000);', 'h_d(R.get())'),
                ('ws::min<long>', 'long', '{ long y = (long)(X % 100000); if (y < *R) *R = y; }', '(u64)R.get()'),
                ('ws::max<int>', 'int', '{ int y = (int)(X % 100000); if (y > *R) *R = y; }', '(u64)R.get()'),
                ('ws::min<double>', 'double', '{ double y = mk_d(X); if (y < *R) *R = y; }', 'h_d(R.get())'),
                ('ws::max<double>', 'double', '{ double y = mk_d(X); if (y > *R) *R = y; }', 'h_d(R.get())'),
                ('ws::append<std::string>', 'std::string', "R->push_back((char)('a' + (X % 26)));", 'h_str(R.get())'),
                ('ws::append<std::vector<long>>', 'std::vector<long>', 'R->push_back((long)(X % 977));', 'h_vec(R.get())'),
                ('M2mon', 'M2', '*R = m2_mul(*R, m2_of(X));', 'h_M2(R.get())')]
        mon, ty, upd, h = self.r.choice(mons)
        self.feat('reducer_cxx_' + mon.split('<')[0].replace('ws::', ''))
        if 'append' in mon:
            self.feat('heap_views')
        R = self.uid('R')
        u = lambda x, rn=R: upd.replace('R', rn).replace('X', '(u64)(%s)' % x)
        out = ['ws::reducer<%s> %s;' % (mon, R)]
        how = self.r.choice(['pfor', 'rec', 'spawns', 'lambda_spawns'])
        self.feat('reducer_cxx_by_' + how)
        if how == 'pfor':
            n = self.r.randint(0, 300)
            out.append('ws::parallel_for(0, %d, %s[&](long lo, long hi) {' % (n, self.r.choice(['', '1, ', '16, '])))
            out.append('  for (long i = lo; i < hi; i++) %s' % u('mix((u64)i, 9)'))
            out.append('});')
        elif how == 'rec':
            f = self.uid('upd')
            g = self.r.randint(1, 8)
            rr = 'r'
            lines = ['static void %s(ws::reducer<%s> &r, long lo, long hi) {' % (f, mon),
                     '  if (hi - lo <= %d) {' % g,
                     '    for (long i = lo; i < hi; i++) %s' % u('mix((u64)i, 11)', 'r'),
                     '    return;', '  }',
                     '  long mid = lo + (hi - lo) / 2;',
                     '  ws_spawn_void(%s, %s, lo, mid);' % (f, self.r.choice(['r', 'std::ref(r)']))]
            if self.chance(0.5):
                lines.append('  %s' % u('(u64)mid * 13', 'r'))
            lines += ['  %s(r, mid, hi);' % f, '  ws_sync();', '}']
            self.decls.append('\n'.join(lines))
            out.append('%s(%s, 0, %d);' % (f, R, self.r.randint(0, 300)))
        elif how == 'spawns':
            f = self.uid('ut')
            self.decls.append('static void %s(ws::reducer<%s> &r, u64 x, int k) {\n'
                              '  for (int i = 0; i < k; i++) %s\n}' % (f, mon, u('x + (u64)i', 'r')))
            for j in range(self.r.randint(1, 5)):
                out.append('ws_spawn_void(%s, std::ref(%s), %s, %d);' % (f, R, self.e(ctx), self.r.randint(1, 6)))
                if self.chance(0.5):
                    out.append(u(self.e(ctx)))
        else:
            for j in range(self.r.randint(1, 4)):
                x = self.uid('x')
                out.append('u64 %s = %s;' % (x, self.e(ctx)))
                out.append('ws_spawn_void([&%s, %s] { for (int i = 0; i < %d; i++) %s });' % (
                    R, x, self.r.randint(1, 5), u('%s + (u64)i' % x)))
                if self.chance(0.5):
                    out.append(u(self.e(ctx)))
        out.append('ws_sync();')
        out.append('%s = mix(%s, %s);' % (ctx.hv, ctx.hv, h.replace('R', R)))
        return out

    def seg_threads(self, ctx):
        self.feat('threads')
        ret = self.pick_type(ctx, for_result=True)
        tn = self.tname(ret)
        nth = self.r.randint(1, 3)
        errno_on = self.on('errno_threads') and (self.chance(0.3) or 'errno_threads' in self.tu.focus)
        exc = self.cxx and self.on('thread_exceptions') and self.on('exceptions') and (
            self.chance(0.3) or 'thread_exceptions' in self.tu.focus)
        sub = Ctx('acc', max(ctx.depth - 1, 0), in_thread=True, may_throw=exc)
        if self.chance(0.5):
            fn, depth = self.rec_fn(sub, ret)
            call = lambda a: '%s(%d, %s)' % (fn, depth, a)
            if errno_on:
                # wrap: a spawning function that sets errno after its spawns
                w = self.uid('en')
                self.decls.append('static %s %s(u64 x) {\n  %s a%s;\n  ws_spawn(a, %s, %d, x);\n  ws_sync();\n'
                                  '  errno = (int)(x %% 50) + 1;\n  return a;\n}' % (
                                      tn, w, tn, '{}' if self.cxx else '', fn, depth))
                call = lambda a: '%s(%s)' % (w, a)
        else:
            fn = self.body_fn(ret, [Param(TY['long'])], sub.sub(depth=max(ctx.depth, 1)), spawning=True,
                              throws=exc, errno_set=errno_on)
            call = lambda a: '%s((long)%s)' % (fn, a)
        if errno_on:
            self.feat('errno_threads')
        if exc:
            self.feat('thread_exceptions')
        at = self.uid('targ')
        th = self.uid('thr')
        self.decls.append('typedef struct %s { u64 x; %s res; int err; long caught; } %s;' % (at, tn, at))
        lines = ['static void *%s(void *p) {' % th, '  %s *a = (%s *)p;' % (at, at)]
        if errno_on:
            lines.append('  errno = 0;')
        if exc:
            lines += ['  try {', '    a->res = %s;' % call('a->x'), '  } catch (const Err &e) {',
                      '    a->caught = e.v + 1;', '  }']
        else:
            lines.append('  a->res = %s;' % call('a->x'))
        if errno_on:
            lines.append('  a->err = errno;')
        lines += ['  return NULL;', '}']
        self.decls.append('\n'.join(lines))
        t = self.uid('t')
        a = self.uid('a')
        out = ['pthread_t %s[%d];' % (t, nth), '%s %s[%d];' % (at, a, nth),
               'for (int j = 0; j < %d; j++) {' % nth,
               '  %s[j].x = %s + (u64)j;' % (a, self.e(ctx)),
               '  %s[j].err = 0;' % a, '  %s[j].caught = 0;' % a]
        if not ret.cls:
            out.append('  %s[j].res = %s;' % (a, ret.mk('0')))
        out += ['  if (pthread_create(&%s[j], NULL, %s, &%s[j]) != 0) abort();' % (t, th, a), '}']
        if self.chance(0.4):
            out += self.seg_straight(ctx.sub(top=False))   # the main thread spawns meanwhile
        out += ['for (int j = 0; j < %d; j++) pthread_join(%s[j], NULL);' % (nth, t),
                'for (int j = 0; j < %d; j++) {' % nth]
        if exc:
            out.append('  if (%s[j].caught) %s = mix(%s, (u64)%s[j].caught); else' % (a, ctx.hv, ctx.hv, a))
        out += ['  %s = mix(%s, %s);' % (ctx.hv, ctx.hv, ret.h('%s[j].res' % a)),
                '  %s = mix(%s, (u64)%s[j].err);' % (ctx.hv, ctx.hv, a), '}']
        return out

    def seg_try(self, ctx):
        """Tasks that throw; the catch folds the serially first exception."""
        self.feat('exceptions')
        tv = self.uid('tv')
        inner = ctx.sub(hv=tv, may_throw=True, in_try=True, top=False, depth=ctx.depth - 1)
        body = ['u64 %s = 0;' % tv]
        for _ in range(self.r.randint(1, 3)):
            body += self.segment(inner, small=self.chance(0.5))
            if self.on('own_throw') and (self.chance(0.3) or 'own_throw' in self.tu.focus):
                # the function's own exception while tasks may be outstanding
                self.feat('own_throw')
                ret = self.pick_type(ctx, for_result=True)
                d, dfn, fold, free = self.dest(inner, ret)
                pre, post = [], []
                sp = self.spawn(inner.sub(may_throw=True), ret, dfn(None), pre, post)
                body += ['{'] + indent(d + pre + sp + post + [
                    'if ((%s >> %d) & 1) throw Err{Obj(5), (long)(%s %% 777)};' % (ctx.hv, self.r.randint(0, 30), ctx.hv),
                    'ws_sync();'] + fold(tv) + free) + ['}']
        body.append('%s = mix(%s, %s);' % (ctx.hv, ctx.hv, tv))
        out = ['try {'] + indent(body) + ['} catch (const Err &e) {',
                                          '  %s = mix(%s, (u64)e.v + h_Obj(e.o));' % (ctx.hv, ctx.hv), '}']
        return out

    def seg_noexcept(self, ctx):
        """A noexcept function catching its tasks' exceptions."""
        self.feat('noexcept_catch')
        name = self.uid('nx')
        inner = Ctx('tv', max(ctx.depth - 1, 0), may_throw=True, in_try=True, in_thread=ctx.in_thread)
        lines = ['static u64 %s(u64 acc) noexcept {' % name, '  try {', '    u64 tv = acc;']
        lines += indent(self.segment(inner, small=True), 2)
        lines += ['    acc = mix(acc, tv);', '  } catch (const Err &e) {', '    return mix(acc, (u64)e.v + 99);', '  }',
                  '  return acc;', '}']
        self.decls.append('\n'.join(lines))
        return ['%s = mix(%s, %s(%s));' % (ctx.hv, ctx.hv, name, self.e(ctx))]

    def seg_coro(self, ctx, outstanding=False):
        self.feat('coro_outstanding' if outstanding else 'coro')
        g = self.uid('gen')
        ret = self.pick_type(ctx, for_result=True)
        if ret.cls or ret.key in ('SA',):
            ret = TY['long']
        tn = self.tname(ret)
        n = self.r.randint(1, 6)
        sub = Ctx('acc', max(ctx.depth - 1, 0), in_coro=True)
        f = self.body_fn(ret, [Param(TY['long'])], sub)
        lines = ['static Gen %s(u64 seed, int n) {' % g]
        if not outstanding:
            lines += ['  for (int i = 0; i < n; i++) {',
                      '    %s a;' % tn,
                      '    u64 acc = mix(seed, (u64)i);',
                      '    ws_spawn(a, %s, (long)acc);' % f,
                      '    acc = mix(acc, 17);',
                      '    ws_sync();',
                      '    co_yield mix(acc, %s);' % ret.h('a'),
                      '  }']
        else:
            lines += ['  %s arr[8];' % tn,
                      '  for (int i = 0; i < n; i++) {',
                      '    ws_spawn(arr[i], %s, (long)mix(seed, (u64)i));' % f,
                      '    co_yield (u64)i;',
                      '  }',
                      '  ws_sync();',
                      '  for (int i = 0; i < n; i++) co_yield %s;' % ret.h('arr[i]')]
        lines.append('}')
        self.decls.append('\n'.join(lines))
        gv = self.uid('g')
        return ['Gen %s = %s(%s, %d);' % (gv, g, self.e(ctx), n),
                'while (%s.next()) %s = mix(%s, %s.value());' % (gv, ctx.hv, ctx.hv, gv)]

    def seg_coro_out(self, ctx):
        return self.seg_coro(ctx, outstanding=True)

    def generate(self):
        ctx = Ctx('h', 2, top=True)
        body = ['u64 h = %s;' % self.salt()]
        for _ in range(self.r.randint(1, 3)):
            body += self.segment(ctx)
        body.append('return h;')
        fn = 'static u64 case%d(void) {\n' % self.k + '\n'.join(indent(body)) + '\n}'
        self.decls.append(fn)
        return self.decls


def _version():
    import hashlib
    with open(__file__, 'rb') as f:
        return hashlib.sha1(f.read()).hexdigest()[:10]


_VERSION = _version()


def version():
    """A hash of this file as imported: a seed makes the same program only under the same version."""
    return _VERSION


class TU:
    def __init__(self, seed, ncases=8, lang=None, switches=None, only=None, focus=None):
        self.seed = seed
        r = random.Random('%s:tu' % seed)
        self.cxx = (lang == 'cpp') if lang else (r.random() < 0.55)
        self.sw = {k: v[0] for k, v in SWITCHES.items()}
        if switches:
            self.sw.update(switches)
        self.coro = self.cxx and self.sw['coro'] or (self.cxx and self.sw['coro_outstanding'])
        self.coro = bool(self.coro) and (r.random() < 0.3 or bool(set(focus or ()) & {'coro', 'coro_outstanding'}))
        self.focus = set(focus or ())
        self.focus_segs = set(s for f in self.focus for s in FOCUS.get(f, ()))
        self.set_workers = self.sw['set_workers'] and (r.random() < 0.1 or 'set_workers' in self.focus)
        self.workers = r.randint(1, 4)
        self.ncases = ncases
        self.only = only

    def std(self):
        if not self.cxx:
            return []
        return ['-std=c++20'] if self.coro else ['-std=c++17']

    def render(self):
        cases = [self.only] if self.only is not None else list(range(self.ncases))
        out = ['/* ws-smith seed %s, %s, cases %s, generator %s */' % (
            self.seed, 'C++' if self.cxx else 'C', ','.join(map(str, cases)), version())]
        out.append('/* ws-smith-flags: %s */' % ' '.join(self.std()))
        out.append((CXX_PRELUDE if self.cxx else C_PRELUDE).strip('\n'))
        out.append(COMMON.strip('\n'))
        if self.cxx:
            out.append(CXX_COMMON.strip('\n'))
            if self.coro:
                out.append(CORO.strip('\n'))
        self.features = {}
        for k in cases:
            c = Case(self, k)
            out.append('/* ---- case %d ---- */' % k)
            out += c.generate()
            self.features[k] = sorted(c.features)
        main = ['int main(int argc, char **argv) {',
                '  int only = argc > 1 ? atoi(argv[1]) : -1;']
        if self.set_workers:
            main.append('  if (ws_set_num_workers(%d) != 0) return 3;' % self.workers)
        for k in cases:
            if self.cxx:
                main.append('  if (only < 0 || only == %d) { long l0 = g_live.load(); u64 v = case%d(); printf("case %d: %%016llx live=%%ld\\n", v, g_live.load() - l0); fflush(stdout); }' % (k, k, k))
            else:
                main.append('  if (only < 0 || only == %d) { u64 v = case%d(); printf("case %d: %%016llx\\n", v); fflush(stdout); }' % (k, k, k))
        main += ['  return 0;', '}']
        out.append('\n'.join(main))
        return '\n\n'.join(out) + '\n'


def parse_switches(enable, disable):
    sw = {}
    for lst, val in ((enable, True), (disable, False)):
        for s in (lst or '').split(','):
            s = s.strip()
            if not s:
                continue
            if s == 'all':
                for k in SWITCHES:
                    sw[k] = val
                continue
            if s not in SWITCHES:
                raise SystemExit('ws-smith: unknown switch %r (--list-switches)' % s)
            sw[s] = val
    return sw


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', default='1')
    ap.add_argument('--cases', type=int, default=8)
    ap.add_argument('--only', type=int)
    ap.add_argument('--lang', choices=['c', 'cpp'])
    ap.add_argument('--enable', default='')
    ap.add_argument('--disable', default='')
    ap.add_argument('--list-switches', action='store_true')
    ap.add_argument('--features', action='store_true', help='print each case\'s features on stderr')
    ap.add_argument('--focus', default='', help='switches whose code to make much likelier (comma-separated)')
    ap.add_argument('-o', '--output')
    a = ap.parse_args()
    if a.list_switches:
        for k, (d, desc) in SWITCHES.items():
            print('%-20s %s  %s' % (k, 'on ' if d else 'off', desc))
        return
    tu = TU(a.seed, a.cases, a.lang, parse_switches(a.enable, a.disable), a.only,
            [f for f in a.focus.split(',') if f])
    src = tu.render()
    if a.output:
        with open(a.output, 'w') as f:
            f.write(src)
    else:
        sys.stdout.write(src)
    if a.features:
        for k, fs in tu.features.items():
            sys.stderr.write('case %d: %s\n' % (k, ' '.join(fs)))


if __name__ == '__main__':
    main()
