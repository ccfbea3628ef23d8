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
 * Also here: the worker count; and, from headers of their own that this
 * one includes, parallel loops (ws/loops.h: ws_for, ws::parallel_for,
 * ws::parallel_reduce) and reducers (ws/reducer.h).  A thread the runtime
 * did not create may call spawning functions: its calls run on the
 * workers while it waits.
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
/* Sets the number of workers, 1..1024, over WS_NUM_WORKERS and the CPU
 * count: before the runtime starts (at the first call of a spawning
 * function or of ws_num_workers), the count it starts with, even from a
 * constructor that runs before the runtime's; afterwards, a new count
 * while the runtime is quiescent (no task outstanding or running, no call
 * of another thread's handed over).  Returns 0; EBUSY (and changes
 * nothing) when the workers run and it is not quiescent; EINVAL for a bad
 * n.  See docs/language.md, "The number of workers". */
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

#ifdef __cplusplus
} /* extern "C" */

#if defined(WS_FENCEFREE)
#include "ws/spawn_cxx.h" /* ws_spawn, ws_spawn_void of any callable */
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

#include "ws/loops.h"

#endif /* WS_WS_H */
