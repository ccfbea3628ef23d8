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
 * before it returns.  Arguments (and the address of the result) are
 * evaluated by the spawning function before the spawn; the call and the
 * assignment of its result run as the task.  The result variable must not
 * be read before the next sync.  `fn` may be a function or a function
 * pointer; an overloaded C++ name needs a cast to pick one overload, and a
 * name with a comma (a template with two arguments) needs parentheses.
 *
 * Also here: parallel loops (ws_for, ws::parallel_for) with an automatic
 * or run-time grain, reducers (ws/reducer.h, ws::parallel_reduce), and the
 * worker count.  A thread the runtime did not create may call spawning
 * functions: its calls run on the workers while it waits.
 *
 * Compiled with `ws-clang -fws-fencefree` (which defines WS_FENCEFREE and
 * loads the ws-lower pass), the spawns run in parallel on the wsff runtime.
 * Compiled without it, the same source is its own serial elision: ws_spawn is
 * a plain call and ws_sync does nothing.  See docs/language.md.
 */
#ifndef WS_WS_H
#define WS_WS_H

#include <errno.h>

#include "ws/reducer.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(WS_FENCEFREE)

/* Markers recognised (and removed) by the ws-lower pass.  A spawn is an
 * ordinary call bracketed by them, so the compiler type-checks it, converts
 * the arguments and lowers them for the callee's ABI exactly as for any
 * call; the pass turns the call (and the assignment of its result) into a
 * task.  Never defined anywhere: a program whose link fails on these was
 * compiled with WS_FENCEFREE but without the pass. */
void __ws_spawn_begin(void *result, ...) __attribute__((nothrow));
void __ws_spawn_end(void) __attribute__((nothrow));
void __ws_sync(void) __attribute__((nothrow));

#define ws_spawn(res, fn, ...)                                                 \
  do {                                                                         \
    __typeof__(&(res)) __ws_rp = &(res);                                       \
    __ws_spawn_begin(__ws_rp, fn);                                             \
    *__ws_rp = fn(__VA_ARGS__);                                                \
    __ws_spawn_end();                                                          \
  } while (0)
#define ws_spawn_void(fn, ...)                                                 \
  do {                                                                         \
    __ws_spawn_begin((void *)0, fn);                                           \
    (void)fn(__VA_ARGS__);                                                     \
    __ws_spawn_end();                                                          \
  } while (0)
#define ws_sync() __ws_sync()

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

#else /* serial elision */

#define ws_spawn(res, fn, ...)                                                 \
  do {                                                                         \
    (res) = fn(__VA_ARGS__);                                                   \
  } while (0)
#define ws_spawn_void(fn, ...)                                                 \
  do {                                                                         \
    (void)fn(__VA_ARGS__);                                                     \
  } while (0)
#define ws_sync() ((void)0)

static inline int ws_num_workers(void) { return 1; }
static inline int ws_worker_id(void) { return 0; }
static inline int ws_set_num_workers(int n) { return n >= 1 && n <= 1024 ? 0 : EINVAL; }

#endif

/* The automatic grain of a loop of n iterations on P workers (OpenCilk's
 * cilk_for rule): min(2048, ceil(n / 8P)), at least 1.  Eight pieces a
 * worker balance the load; 2048 iterations amortise a spawn. */
static inline long ws_for_grain(long n) {
  long p8 = 8L * ws_num_workers();
  long g = n > 0 ? (n + p8 - 1) / p8 : 1;
  return g < 1 ? 1 : g > 2048 ? 2048 : g;
}

/* Parallel loop: body(lo', hi', ctx) over disjoint pieces of [lo, hi) of at
 * most `grain` iterations each, split in halves by divide and conquer.
 * grain <= 0: the automatic grain, ws_for_grain(hi - lo).  The grain is a
 * run-time value. */
typedef void (*ws_for_body)(long lo, long hi, void *ctx);

static inline void ws_for_range(long lo, long hi, long grain, ws_for_body body,
                                void *ctx) {
  if (hi - lo <= grain) {
    if (hi > lo)
      body(lo, hi, ctx);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(ws_for_range, lo, mid, grain, body, ctx);
  ws_for_range(mid, hi, grain, body, ctx);
  ws_sync();
}

static inline void ws_for(long lo, long hi, long grain, ws_for_body body,
                          void *ctx) {
  ws_for_range(lo, hi, grain > 0 ? grain : ws_for_grain(hi - lo), body, ctx);
}

#ifdef __cplusplus
} /* extern "C" */

namespace ws {
namespace detail {
template <class Body>
inline void for_range(long lo, long hi, long grain, const Body &body) {
  if (hi - lo <= grain) {
    if (hi > lo)
      body(lo, hi);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(for_range<Body>, lo, mid, grain, body);
  for_range(mid, hi, grain, body);
  ws_sync();
}

template <class T, class Range, class Combine>
inline T reduce_range(long lo, long hi, long grain, const T &identity,
                      const Range &range, const Combine &combine) {
  if (hi - lo <= grain)
    return range(lo, hi, identity);
  long mid = lo + (hi - lo) / 2;
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
  detail::for_range(lo, hi, grain > 0 ? grain : ws_for_grain(hi - lo), body);
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
 * combine need only be associative. */
template <class T, class Range, class Combine>
inline T parallel_reduce(long lo, long hi, long grain, const T &identity,
                         const Range &range, const Combine &combine) {
  return detail::reduce_range(lo, hi, grain > 0 ? grain : ws_for_grain(hi - lo),
                              identity, range, combine);
}
} // namespace ws
#endif

#endif /* WS_WS_H */
