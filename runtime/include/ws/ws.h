/*
 * ws/ws.h — the wsff user API.
 *
 *   long fib(long n) {
 *     if (n < 2) return n;
 *     long a, b;
 *     ws_spawn(a, fib, n - 1);   // a = fib(n-1), possibly on another worker
 *     b = fib(n - 2);
 *     ws_sync();                 // every ws_spawn of this call is done: a is set
 *     return a + b;
 *   }
 *
 * Semantics are Cilk's: ws_sync() waits for every spawn made so far by the
 * current function invocation, and a function that spawns syncs implicitly
 * before it returns and before an exception leaves it.  Arguments (and the
 * address of the result) are evaluated by the spawning function before the
 * spawn, `fn` exactly once; the call and the assignment of its result run
 * as the task.  The result variable must not be read before the next sync.
 * `fn` may be a function or any expression giving a function pointer; in
 * C++ also any callable (a lambda, a function object, std::function, or a
 * pointer to member function followed by the object pointer), which the
 * task calls a copy of, with copies of the arguments (as std::thread does:
 * std::ref passes a reference).  An exception a task throws reaches the
 * spawning function at its sync.  See docs/language.md.
 *
 * Also here: parallel loops (ws_for, ws::parallel_for) with an automatic
 * or run-time grain, reducers (ws/reducer.h, ws::parallel_reduce), and the
 * worker count.  A thread the runtime did not create may call spawning
 * functions: its calls run on the workers while it waits.
 *
 * Compiled with `ws-clang -fws-fencefree` (which defines WS_FENCEFREE and
 * loads the ws-lower pass), the spawns run in parallel on the wsff runtime.
 * Compiled without it, the same source is its own serial elision: ws_spawn is
 * a plain call and ws_sync does nothing.
 */
#ifndef WS_WS_H
#define WS_WS_H

#include <errno.h>

#include "ws/reducer.h"

#ifdef __cplusplus
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
extern "C" {
#endif

#if defined(WS_FENCEFREE)

/* Markers recognised (and removed) by the ws-lower pass.  A spawn is an
 * ordinary call bracketed by them, so the compiler type-checks it, converts
 * the arguments and lowers them for the callee's ABI exactly as for any
 * call; the pass turns the call (and the assignment of its result) into a
 * task.  The begin marker returns the function it is given, and the macro
 * calls through that value: so the function expression is evaluated once,
 * and the pass knows the spawned call exactly.  Never defined anywhere: a
 * program whose link fails on these was compiled with WS_FENCEFREE but
 * without the pass.  __ws_sync may throw: an exception of a task comes out
 * of the sync. */
void (*__ws_spawn_begin(void *result, ...))(void) __attribute__((nothrow));
void __ws_spawn_end(void) __attribute__((nothrow));
void __ws_sync(void);

/* The number of workers (starts the runtime, if it has not started), and
 * the calling thread's worker id: 0 on the main thread, -1 on a thread the
 * runtime does not own. */
int ws_num_workers(void);
int ws_worker_id(void);
/* Sets the number of workers, 1..1024, before the runtime starts (at the
 * first call of a spawning function or of ws_num_workers).  Returns 0;
 * EBUSY (and changes nothing) once it has started; EINVAL for a bad n.
 * It overrides WS_NUM_WORKERS. */
int ws_set_num_workers(int n);

#ifndef __cplusplus
#define ws_spawn(res, fn, ...)                                                 \
  do {                                                                         \
    __typeof__(&(res)) __ws_rp = &(res);                                       \
    *__ws_rp = ((__typeof__(&*(fn)))__ws_spawn_begin(__ws_rp, (fn)))(         \
        __VA_ARGS__);                                                          \
    __ws_spawn_end();                                                          \
  } while (0)
#define ws_spawn_void(fn, ...)                                                 \
  do {                                                                         \
    (void)((__typeof__(&*(fn)))__ws_spawn_begin((void *)0, (fn)))(            \
        __VA_ARGS__);                                                          \
    __ws_spawn_end();                                                          \
  } while (0)
#endif
#define ws_sync() __ws_sync()

#else /* serial elision */

#ifndef __cplusplus
#define ws_spawn(res, fn, ...)                                                 \
  do {                                                                         \
    (res) = (fn)(__VA_ARGS__);                                                 \
  } while (0)
#define ws_spawn_void(fn, ...)                                                 \
  do {                                                                         \
    (void)(fn)(__VA_ARGS__);                                                   \
  } while (0)
#endif
#define ws_sync() ((void)0)

static inline int ws_num_workers(void) { return 1; }
static inline int ws_worker_id(void) { return 0; }
static inline int ws_set_num_workers(int n) { return n >= 1 && n <= 1024 ? 0 : EINVAL; }

#endif

/* The automatic grain of a loop of n iterations on P workers (OpenCilk's
 * cilk_for rule): min(2048, ceil(n / 8P)), at least 1.  Eight pieces a
 * worker balance the load; 2048 iterations amortise a spawn.  The count is
 * unsigned: a loop over [LONG_MIN, LONG_MAX) has more than LONG_MAX
 * iterations. */
static inline long ws_for_grain_of(unsigned long n) {
  unsigned long p8 = 8UL * (unsigned long)ws_num_workers();
  unsigned long g = n / p8 + (n % p8 != 0);
  return g < 1 ? 1 : g > 2048 ? 2048 : (long)g;
}
static inline long ws_for_grain(long n) { return n > 0 ? ws_for_grain_of((unsigned long)n) : 1; }

#ifdef __cplusplus
} /* extern "C" */

#if defined(WS_FENCEFREE)
#include "ws/spawn_cxx.h"

/* The spawned call of M arguments, through the begin marker (see
 * ws/spawn_cxx.h): one branch per M, the others typed but empty. */
#define WS_DETAIL_ARGS_0(M)
#define WS_DETAIL_ARGS_1(M) __ws_h.template arg<0, M>()
#define WS_DETAIL_ARGS_2(M) WS_DETAIL_ARGS_1(M), __ws_h.template arg<1, M>()
#define WS_DETAIL_ARGS_3(M) WS_DETAIL_ARGS_2(M), __ws_h.template arg<2, M>()
#define WS_DETAIL_ARGS_4(M) WS_DETAIL_ARGS_3(M), __ws_h.template arg<3, M>()
#define WS_DETAIL_ARGS_5(M) WS_DETAIL_ARGS_4(M), __ws_h.template arg<4, M>()
#define WS_DETAIL_ARGS_6(M) WS_DETAIL_ARGS_5(M), __ws_h.template arg<5, M>()
#define WS_DETAIL_ARGS_7(M) WS_DETAIL_ARGS_6(M), __ws_h.template arg<6, M>()
#define WS_DETAIL_ARGS_8(M) WS_DETAIL_ARGS_7(M), __ws_h.template arg<7, M>()
#define WS_DETAIL_ARGS_9(M) WS_DETAIL_ARGS_8(M), __ws_h.template arg<8, M>()
#define WS_DETAIL_ARGS_10(M) WS_DETAIL_ARGS_9(M), __ws_h.template arg<9, M>()
#define WS_DETAIL_ARGS_11(M) WS_DETAIL_ARGS_10(M), __ws_h.template arg<10, M>()
#define WS_DETAIL_ARGS_12(M) WS_DETAIL_ARGS_11(M), __ws_h.template arg<11, M>()
#define WS_DETAIL_ARGS_13(M) WS_DETAIL_ARGS_12(M), __ws_h.template arg<12, M>()
#define WS_DETAIL_ARGS_14(M) WS_DETAIL_ARGS_13(M), __ws_h.template arg<13, M>()
#define WS_DETAIL_ARGS_15(M) WS_DETAIL_ARGS_14(M), __ws_h.template arg<14, M>()
#define WS_DETAIL_ARGS_16(M) WS_DETAIL_ARGS_15(M), __ws_h.template arg<15, M>()
#define WS_DETAIL_CALL(assign, rp, M)                                          \
  if constexpr (__ws_s::margs == M) {                                          \
    assign(((typename __ws_s::template fn_t<M>)__ws_spawn_begin(               \
        rp, __ws_h.target()))(WS_DETAIL_ARGS_##M(M)));                         \
  } else
#define WS_DETAIL_SPAWN(assign, rp, ...)                                       \
  do {                                                                         \
    auto __ws_h = ::ws::detail::hold(__VA_ARGS__);                             \
    using __ws_s = decltype(__ws_h);                                           \
    WS_DETAIL_CALL(assign, rp, 0) WS_DETAIL_CALL(assign, rp, 1)                \
    WS_DETAIL_CALL(assign, rp, 2) WS_DETAIL_CALL(assign, rp, 3)                \
    WS_DETAIL_CALL(assign, rp, 4) WS_DETAIL_CALL(assign, rp, 5)                \
    WS_DETAIL_CALL(assign, rp, 6) WS_DETAIL_CALL(assign, rp, 7)                \
    WS_DETAIL_CALL(assign, rp, 8) WS_DETAIL_CALL(assign, rp, 9)                \
    WS_DETAIL_CALL(assign, rp, 10) WS_DETAIL_CALL(assign, rp, 11)              \
    WS_DETAIL_CALL(assign, rp, 12) WS_DETAIL_CALL(assign, rp, 13)              \
    WS_DETAIL_CALL(assign, rp, 14) WS_DETAIL_CALL(assign, rp, 15)              \
    WS_DETAIL_CALL(assign, rp, 16) {}                                          \
    __ws_spawn_end();                                                          \
  } while (0)
#define WS_DETAIL_STORE(call) *__ws_rp = call
#define WS_DETAIL_DISCARD(call) (void)call
/* ws_spawn(res, fn, args...): the callable and its arguments travel as one
 * __VA_ARGS__, so a lambda written in place may capture anything. */
#define ws_spawn(res, ...)                                                     \
  do {                                                                         \
    auto *__ws_rp = __builtin_addressof(res);                                  \
    WS_DETAIL_SPAWN(WS_DETAIL_STORE, __ws_rp, __VA_ARGS__);                    \
  } while (0)
#define ws_spawn_void(...) WS_DETAIL_SPAWN(WS_DETAIL_DISCARD, nullptr, __VA_ARGS__)
#else /* serial elision: the call, of any callable */
#define ws_spawn(res, ...)                                                     \
  do {                                                                         \
    (res) = ::std::invoke(__VA_ARGS__);                                        \
  } while (0)
#define ws_spawn_void(...)                                                     \
  do {                                                                         \
    (void)::std::invoke(__VA_ARGS__);                                          \
  } while (0)
#endif
#endif /* __cplusplus */

/* Parallel loop: body(lo', hi', ctx) over disjoint pieces of [lo, hi) of at
 * most `grain` iterations each, split in halves by divide and conquer.
 * grain <= 0: the automatic grain, ws_for_grain(hi - lo).  The grain is a
 * run-time value.  Lengths are computed in unsigned arithmetic, exact for
 * any lo < hi. */
typedef void (*ws_for_body)(long lo, long hi, void *ctx);

static inline void ws_for_range(long lo, long hi, long grain, ws_for_body body,
                                void *ctx) {
  if (hi <= lo)
    return;
  unsigned long n = (unsigned long)hi - (unsigned long)lo;
  if (n <= (unsigned long)(grain > 0 ? grain : 1)) {
    body(lo, hi, ctx);
    return;
  }
  long mid = (long)((unsigned long)lo + n / 2);
  ws_spawn_void(ws_for_range, lo, mid, grain, body, ctx);
  ws_for_range(mid, hi, grain, body, ctx);
  ws_sync();
}

static inline void ws_for(long lo, long hi, long grain, ws_for_body body,
                          void *ctx) {
  if (hi <= lo)
    return;
  ws_for_range(lo, hi,
               grain > 0 ? grain : ws_for_grain_of((unsigned long)hi - (unsigned long)lo),
               body, ctx);
}

#ifdef __cplusplus
namespace ws {
namespace detail {
/* The number of iterations of [lo, hi), lo < hi, and its middle. */
inline unsigned long range_size(long lo, long hi) {
  return (unsigned long)hi - (unsigned long)lo;
}
inline long range_middle(long lo, long hi) {
  return (long)((unsigned long)lo + range_size(lo, hi) / 2);
}
inline long auto_grain(long lo, long hi, long grain) {
  return grain > 0 ? grain : hi > lo ? ws_for_grain_of(range_size(lo, hi)) : 1;
}

template <class Body>
inline void for_range(long lo, long hi, long grain, const Body &body) {
  if (hi <= lo)
    return;
  if (range_size(lo, hi) <= (unsigned long)grain) {
    body(lo, hi);
    return;
  }
  long mid = range_middle(lo, hi);
  ws_spawn_void(for_range<Body>, lo, mid, grain, body);
  for_range(mid, hi, grain, body);
  ws_sync();
}

template <class T, class Range, class Combine>
inline T reduce_range(long lo, long hi, long grain, const T &identity,
                      const Range &range, const Combine &combine) {
  if (range_size(lo, hi) <= (unsigned long)grain)
    return range(lo, hi, identity);
  long mid = range_middle(lo, hi);
  T left = identity;
  ws_spawn(left, (reduce_range<T, Range, Combine>), lo, mid, grain, identity,
           range, combine);
  T right = reduce_range(mid, hi, grain, identity, range, combine);
  ws_sync();
  return combine(left, right);
}
} // namespace detail

/* C++: body(lo', hi') on disjoint pieces of [lo, hi) of at most `grain`
 * iterations, in parallel (grain <= 0 or left out: ws_for_grain); `body`
 * is any callable, taken by reference (it outlives the implicit sync). */
template <class Body>
inline void parallel_for(long lo, long hi, long grain, const Body &body) {
  detail::for_range(lo, hi, detail::auto_grain(lo, hi, grain), body);
}
template <class Body> inline void parallel_for(long lo, long hi, const Body &body) {
  parallel_for(lo, hi, 0, body);
}

/* A reduction with a reducer: body(lo', hi', view) on the pieces, where
 * view is the reducer's view for that piece. */
template <class M, class Body>
inline void parallel_reduce(long lo, long hi, long grain, reducer<M> &r,
                            const Body &body) {
  parallel_for(lo, hi, grain,
               [&r, &body](long a, long b) { body(a, b, r.view()); });
}

/* A reduction as a lambda pair (oneTBB's functional form): range(lo',
 * hi', identity) reduces a piece to a value, combine(left, right) reduces
 * two neighbours, left first; the pieces are combined in their order, so
 * combine need only be associative.  An empty or reversed range (hi <= lo)
 * gives the identity, calling neither. */
template <class T, class Range, class Combine>
inline T parallel_reduce(long lo, long hi, long grain, const T &identity,
                         const Range &range, const Combine &combine) {
  if (hi <= lo)
    return identity;
  return detail::reduce_range(lo, hi, detail::auto_grain(lo, hi, grain), identity,
                              range, combine);
}
} // namespace ws
#endif

#endif /* WS_WS_H */
