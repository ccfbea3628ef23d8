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
 * before it returns.  Arguments are evaluated by the spawning function before
 * the spawn.  The result variable must not be read before the next sync.
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

/* Builtins recognised (and replaced) by the ws-lower pass.  Never defined
 * anywhere: a program that reaches the linker with these still referenced
 * was compiled with WS_FENCEFREE but without the pass. */
void __ws_spawn(void *result, unsigned long result_size, int result_class, ...);
void __ws_spawn_void(int reserved, ...);
void __ws_sync(void);

#define ws_spawn(res, fn, ...)                                                 \
  __ws_spawn(&(res), sizeof(res), __builtin_classify_type(res), fn,            \
             ##__VA_ARGS__)
#define ws_spawn_void(fn, ...) __ws_spawn_void(0, fn, ##__VA_ARGS__)
#define ws_sync() __ws_sync()

int ws_num_workers(void);
int ws_worker_id(void);

#else /* serial elision */

#define ws_spawn(res, fn, ...) ((void)((res) = fn(__VA_ARGS__)))
#define ws_spawn_void(fn, ...) ((void)fn(__VA_ARGS__))
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
#endif

#endif /* WS_WS_H */
