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
 * worker balance the load; 2048 iterations amortise a spawn. */
static inline long ws_for_grain(long n) {
  long p8 = 8L * ws_num_workers();
  long g = n > 0 ? (n + p8 - 1) / p8 : 1;
  return g < 1 ? 1 : g > 2048 ? 2048 : g;
}

#ifdef __cplusplus
} /* extern "C" */

#if defined(WS_FENCEFREE)
namespace ws {
namespace detail {
/* How a C++ spawn reaches the pass: always as the call of a function, one
 * of three ways, chosen from the types of `fn` and of the arguments.
 *
 *   call  `fn` names a function whose parameters take the arguments so
 *         that they stay valid in the task (by value in a trivially
 *         copyable type, or by reference to an object of the caller):
 *         the plain call, exactly as in C;
 *   copy  any other trivially copyable callable (a lambda capturing by
 *         reference or small values, a function pointer, a pointer to
 *         member function) with trivially copyable arguments:
 *         call<D, A...>(fn, args...), which takes the callable and the
 *         decayed arguments by value;
 *   box   anything else (std::function, a lambda capturing a std::string,
 *         a std::string argument): a copy of the callable and of the
 *         arguments on the heap, made before the spawn, called and
 *         deleted by the task through call_boxed<D, A...>.
 *
 * The macro holds all three as `if constexpr` branches; only the chosen
 * one is compiled to code, and the others are typed so that they compile
 * whenever it does. */
enum class how { call, copy, box };

template <class... A> struct arg_list {};
/* The arguments as forwarded: T& for an lvalue, T for an rvalue (decltype
 * only, never called). */
template <class... A> arg_list<A...> args_of(A &&...);

/* Does parameter P take argument A (as forwarded) so that it stays valid
 * in the task? */
template <class P, class A> constexpr bool stays_valid() {
  using PB = std::remove_cv_t<std::remove_reference_t<P>>;
  using AB = std::remove_cv_t<std::remove_reference_t<A>>;
  if constexpr (std::is_lvalue_reference_v<P>)
    return std::is_lvalue_reference_v<A> &&
           (std::is_same_v<PB, AB> || std::is_base_of_v<PB, AB>);
  else if constexpr (std::is_reference_v<P>)
    return false;
  else
    return std::is_trivially_copyable_v<PB> &&
           (std::is_lvalue_reference_v<A> || std::is_trivially_destructible_v<AB>);
}
template <class... P, class... A>
constexpr bool all_stay_valid(arg_list<P...> *, arg_list<A...> *) {
  if constexpr (sizeof...(P) != sizeof...(A))
    return true; /* the plain call: clang says what is wrong with it */
  else
    return (stays_valid<P, A>() && ...);
}

template <class F, class L> struct plain_call : std::false_type {};
template <class R, class... P, class L>
struct plain_call<R(P...), L>
    : std::bool_constant<all_stay_valid((arg_list<P...> *)nullptr, (L *)nullptr)> {};
template <class R, class... P, class L>
struct plain_call<R(P...) noexcept, L> : plain_call<R(P...), L> {};
template <class R, class... P, class L>
struct plain_call<R(P..., ...), L> : std::true_type {};
template <class R, class... P, class L>
struct plain_call<R(P..., ...) noexcept, L> : std::true_type {};

template <class F> struct result_of_function;
template <class R, class... P> struct result_of_function<R(P...)> { using type = R; };
template <class R, class... P> struct result_of_function<R(P...) noexcept> { using type = R; };
template <class R, class... P> struct result_of_function<R(P..., ...)> { using type = R; };
template <class R, class... P> struct result_of_function<R(P..., ...) noexcept> { using type = R; };

template <class T> struct type_is { using type = T; };

/* Stands for what the branches not taken would build. */
struct unused {
  template <class... T> unused(T &&...) {}
};

template <class D, class... A>
std::invoke_result_t<D &, A...> call(D fn, A... args) {
  return std::invoke(fn, std::move(args)...);
}
template <class D, class... A>
std::invoke_result_t<D &, A...> call_boxed(std::tuple<D, A...> *box) {
  std::unique_ptr<std::tuple<D, A...>> own(box);
  return std::apply([](D &fn, A &...args) -> decltype(auto) {
    return std::invoke(fn, std::move(args)...);
  }, *own);
}

/* F: decltype of the callable (a reference), A: the arguments as forwarded. */
template <class F, class L> struct spawn;
template <class F, class... A> struct spawn<F, arg_list<A...>> {
  using Fn = std::remove_reference_t<F>;
  using D = std::decay_t<F>;
  static constexpr how kind =
      std::is_function_v<Fn> && plain_call<Fn, arg_list<A...>>::value ? how::call
      : std::is_trivially_copyable_v<D> &&
              (std::is_trivially_copyable_v<std::decay_t<A>> && ...)
          ? how::copy
          : how::box;
  static_assert(kind == how::call || std::is_invocable_v<D &, std::decay_t<A>...>,
                "ws_spawn: the callable cannot be called with copies of these "
                "arguments (a task calls a copy of the callable with copies of "
                "the arguments, as std::thread does; pass a reference with "
                "std::ref)");
  using R = typename std::conditional_t<
      kind == how::call, result_of_function<Fn>,
      std::conditional_t<std::is_invocable_v<D &, std::decay_t<A>...>,
                         std::invoke_result<D &, std::decay_t<A>...>,
                         type_is<void>>>::type;

  using call_fn = std::conditional_t<kind == how::call, D, R (*)(A &&...)>;
  using copy_first = std::conditional_t<kind == how::copy, D, F>;
  using copy_fn = std::conditional_t<kind == how::copy, R (*)(D, std::decay_t<A>...),
                                     R (*)(F, A &&...)>;
  using box_t = std::conditional_t<kind == how::box, std::tuple<D, std::decay_t<A>...>,
                                   unused>;
  using box_fn = std::conditional_t<kind == how::box, R (*)(box_t *), R (*)(unused *)>;
  static constexpr auto copy_target = [] {
    if constexpr (kind == how::copy)
      return &call<D, std::decay_t<A>...>;
    else
      return nullptr;
  }();
  static constexpr auto box_target = [] {
    if constexpr (kind == how::box)
      return &call_boxed<D, std::decay_t<A>...>;
    else
      return nullptr;
  }();
};
} // namespace detail
} // namespace ws

#define WS_DETAIL_SPAWN(assign, rp, fn, ...)                                   \
  do {                                                                         \
    auto &&__ws_f = (fn);                                                      \
    using __ws_s = ::ws::detail::spawn<decltype(__ws_f), decltype(             \
        ::ws::detail::args_of(__VA_ARGS__))>;                                  \
    if constexpr (__ws_s::kind == ::ws::detail::how::call) {                   \
      assign(((typename __ws_s::call_fn)__ws_spawn_begin(                      \
          rp, __builtin_addressof(__ws_f)))(__VA_ARGS__));                     \
    } else if constexpr (__ws_s::kind == ::ws::detail::how::copy) {            \
      assign(((typename __ws_s::copy_fn)__ws_spawn_begin(                      \
          rp, __ws_s::copy_target))(static_cast<typename __ws_s::copy_first>(  \
          ::std::forward<decltype(__ws_f)>(__ws_f)) __VA_OPT__(, ) __VA_ARGS__)); \
    } else {                                                                   \
      auto *__ws_box = new typename __ws_s::box_t(                             \
          ::std::forward<decltype(__ws_f)>(__ws_f) __VA_OPT__(, ) __VA_ARGS__); \
      assign(((typename __ws_s::box_fn)__ws_spawn_begin(                       \
          rp, __ws_s::box_target))(__ws_box));                                 \
    }                                                                          \
    __ws_spawn_end();                                                          \
  } while (0)
#define WS_DETAIL_STORE(call) *__ws_rp = call
#define WS_DETAIL_DISCARD(call) (void)call
#define ws_spawn(res, fn, ...)                                                 \
  do {                                                                         \
    auto *__ws_rp = __builtin_addressof(res);                                  \
    WS_DETAIL_SPAWN(WS_DETAIL_STORE, __ws_rp, fn, __VA_ARGS__);                \
  } while (0)
#define ws_spawn_void(fn, ...)                                                 \
  WS_DETAIL_SPAWN(WS_DETAIL_DISCARD, nullptr, fn, __VA_ARGS__)
#else /* serial elision: the call, of any callable */
#define ws_spawn(res, fn, ...)                                                 \
  do {                                                                         \
    (res) = ::std::invoke((fn)__VA_OPT__(, ) __VA_ARGS__);                     \
  } while (0)
#define ws_spawn_void(fn, ...)                                                 \
  do {                                                                         \
    (void)::std::invoke((fn)__VA_OPT__(, ) __VA_ARGS__);                       \
  } while (0)
#endif
#endif /* __cplusplus */

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
