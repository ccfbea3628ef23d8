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
 * Compiled with `ws-clang -fws-fencefree` (which defines WS_FENCEFREE and
 * loads the ws-lower pass), the spawns run in parallel on the wsff runtime.
 * Compiled without it, the same source is its own serial elision: ws_spawn is
 * a plain call and ws_sync does nothing.  See docs/language.md.
 */
#ifndef WS_WS_H
#define WS_WS_H

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

int ws_num_workers(void);
int ws_worker_id(void);

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

#endif

/* Parallel loop: body(lo', hi', ctx) over disjoint pieces of [lo, hi) of at
 * most `grain` iterations each, split in halves by divide and conquer. */
typedef void (*ws_for_body)(long lo, long hi, void *ctx);

static inline void ws_for(long lo, long hi, long grain, ws_for_body body,
                          void *ctx) {
  if (grain < 1)
    grain = 1;
  if (hi - lo <= grain) {
    if (hi > lo)
      body(lo, hi, ctx);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(ws_for, lo, mid, grain, body, ctx);
  ws_for(mid, hi, grain, body, ctx);
  ws_sync();
}

#ifdef __cplusplus
} /* extern "C" */

namespace ws {
/* C++: body(lo', hi') on disjoint pieces of [lo, hi) of at most `grain`
 * iterations, in parallel; `body` is any callable, taken by reference (it
 * outlives the implicit sync). */
template <class Body>
inline void parallel_for(long lo, long hi, long grain, const Body &body) {
  if (grain < 1)
    grain = 1;
  if (hi - lo <= grain) {
    if (hi > lo)
      body(lo, hi);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(parallel_for<Body>, lo, mid, grain, body);
  parallel_for(mid, hi, grain, body);
  ws_sync();
}
} // namespace ws
#endif

#endif /* WS_WS_H */
