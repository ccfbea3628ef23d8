/*
 * ws/spawn_cxx.h — how a C++ ws_spawn reaches the ws-lower pass (included
 * by ws/ws.h under WS_FENCEFREE; not a header of its own).
 *
 * The macros pass the callable and its arguments on as one __VA_ARGS__:
 * the preprocessor cannot find where the callable ends when it holds a
 * comma (`ws_spawn_void([&v, k] { ... })`), and C++17 cannot name a lambda
 * expression's type without evaluating it.  So the spawning function
 * evaluates them once, into a local (`hold`), and the spawned call reads
 * them back, one of three ways chosen from their types:
 *
 *   call  the callable is a function whose parameters take the arguments
 *         so that they stay valid in the task (by value in a trivially
 *         copyable type, or by reference to an object of the caller): the
 *         local keeps each argument converted to its parameter (or the
 *         address of the caller's object), and the spawn is the plain call
 *         `fn(args...)`, exactly as in C;
 *   copy  any other trivially copyable callable (a lambda capturing by
 *         reference or small values, a function pointer, a pointer to
 *         member function) with trivially copyable arguments: their
 *         decayed copies, passed by value to call_flat;
 *   box   anything else (std::function, a lambda capturing a std::string,
 *         a std::string argument): copies on the heap, made before the
 *         spawn, called and deleted by the task through call_boxed.
 *
 * The branches of the macro are `if constexpr`; only the chosen one makes
 * code, and the others are typed (with `unused`) so that they compile
 * whenever it does.  The helpers here are always_inline and the pass
 * inlines them before it reads the function, so that it sees which of the
 * caller's objects a task can reach: it syncs before such an object's
 * life ends (docs/language.md, "Locals that tasks use").
 */
#ifndef WS_SPAWN_CXX_H
#define WS_SPAWN_CXX_H

#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#define WS_DETAIL_INLINE __attribute__((always_inline)) inline

namespace ws {
namespace detail {
enum class how { call, copy, box };

/* The most arguments a plain call may take (one branch of the macro each). */
constexpr std::size_t max_call_args = 16;

template <class... A> struct arg_list {};

/* Does parameter P take argument A (as forwarded: T& for an lvalue, T for
 * an rvalue) so that it stays valid in the task? */
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

/* A function type's parts: its result and parameters, and whether a plain
 * call of it with arguments L keeps them valid in the task. */
template <class F> struct function_parts {
  static constexpr bool is = false;
  template <class L> static constexpr bool plain() { return false; }
};
template <class R, class... P> struct function_parts<R(P...)> {
  static constexpr bool is = true;
  using type = R; /* the result */
  using params = arg_list<P...>;
  template <class L> static constexpr bool plain() {
    return all_stay_valid((arg_list<P...> *)nullptr, (L *)nullptr);
  }
};
template <class R, class... P>
struct function_parts<R(P...) noexcept> : function_parts<R(P...)> {};
template <class R, class... P> struct function_parts<R(P..., ...)> {
  static constexpr bool is = true;
  using type = R; /* the result */
  using params = arg_list<P...>;
  template <class L> static constexpr bool plain() { return true; }
};
template <class R, class... P>
struct function_parts<R(P..., ...) noexcept> : function_parts<R(P..., ...)> {};

template <class T> struct type_is {
  using type = T;
};

/* Stands for what the branches not taken would build. */
struct unused {
  template <class... T> unused(T &&...) {}
};
template <std::size_t> using unused_at = unused;
template <class R, class Seq> struct unused_fn;
template <class R, std::size_t... I> struct unused_fn<R, std::index_sequence<I...>> {
  using type = R (*)(unused_at<I>...);
};

/* A tuple that is an aggregate of leaves, each initialised from its
 * argument by its own copy or move constructor: trivially copyable when
 * its elements are (std::tuple is not). */
template <std::size_t I, class T> struct leaf {
  T v;
};
template <class Seq, class... T> struct flat_of;
template <std::size_t... I, class... T>
struct flat_of<std::index_sequence<I...>, T...> : leaf<I, T>... {};
template <class... T> using flat = flat_of<std::index_sequence_for<T...>, T...>;
template <std::size_t I, class T> WS_DETAIL_INLINE T &at(leaf<I, T> &l) { return l.v; }

/* The copy target: the task's own copies of the callable and arguments. */
template <class R, class D, class... A> R call(D fn, A... args) {
  return std::invoke(fn, std::move(args)...);
}
/* The box target: the task calls, then deletes, the heap copies. */
template <class R, class D, class... A, std::size_t... I>
R call_flat(flat<D, A...> &h, std::index_sequence<I...>) {
  return std::invoke(at<0>(h), std::move(at<I + 1>(h))...);
}
template <class R, class D, class... A> R call_boxed(flat<D, A...> *box) {
  std::unique_ptr<flat<D, A...>> own(box);
  return call_flat<R, D, A...>(*own, std::index_sequence_for<A...>{});
}

/* What a plain call keeps of argument A for parameter P: the address of
 * the caller's object for a reference, else the argument converted to the
 * parameter as the call would (past a variadic function's parameters:
 * decayed, the call promotes it). */
template <class P, class A> struct kept_arg {
  static constexpr bool by_ref = std::is_reference_v<P>;
  using type = std::conditional_t<by_ref, std::remove_reference_t<P> *,
                                  std::remove_cv_t<std::remove_reference_t<P>>>;
  static WS_DETAIL_INLINE type keep(A &&a) {
    if constexpr (by_ref) {
      return __builtin_addressof(a);
    } else {
      type converted = static_cast<A &&>(a);
      return converted;
    }
  }
};
template <class A> struct kept_arg<void, A> {
  static constexpr bool by_ref = false;
  using type = std::decay_t<A>;
  static WS_DETAIL_INLINE type keep(A &&a) { return static_cast<A &&>(a); }
};
template <class Params, std::size_t I> struct param_at : type_is<void> {};
template <class P0, class... P> struct param_at<arg_list<P0, P...>, 0> : type_is<P0> {};
template <class P0, class... P, std::size_t I>
struct param_at<arg_list<P0, P...>, I> : param_at<arg_list<P...>, I - 1> {};

template <class Fn, class L, class Seq> struct plain_held;
template <class Fn, class... A, std::size_t... I>
struct plain_held<Fn, arg_list<A...>, std::index_sequence<I...>> {
  template <std::size_t J, class B>
  using kept = kept_arg<typename param_at<typename function_parts<Fn>::params, J>::type, B>;
  using type = flat<Fn *, typename kept<I, A>::type...>;
  template <class F> static WS_DETAIL_INLINE void make(void *at, F &fn, A &&...a) {
    ::new (at) type{{__builtin_addressof(fn)}, {kept<I, A>::keep(static_cast<A &&>(a))}...};
  }
};

/* The callable (as forwarded: T& for an lvalue, T for an rvalue) and the
 * arguments of one spawn, held by the spawning function; the macro calls
 * target() with arg<0, M>() ... arg<M-1, M>(), M = margs. */
template <class F, class... A> class held {
  using Fn = std::remove_reference_t<F>;
  using D = std::decay_t<F>;
  static constexpr std::size_t nargs = sizeof...(A);

public:
  static constexpr how kind =
      function_parts<Fn>::template plain<arg_list<A...>>()
          ? how::call
      : std::is_trivially_copyable_v<D> && (std::is_trivially_copyable_v<std::decay_t<A>> && ...)
          ? how::copy
          : how::box;
  static_assert(kind == how::call || std::is_invocable_v<D &, std::decay_t<A>...>,
                "ws_spawn: the callable cannot be called with copies of these "
                "arguments (a task calls a copy of the callable with copies of "
                "the arguments, as std::thread does; pass a reference with "
                "std::ref)");
  /* The arguments of the spawned call. */
  static constexpr std::size_t margs =
      kind == how::call ? nargs : kind == how::copy ? nargs + 1 : 1;
  static_assert(margs <= max_call_args,
                "ws_spawn: more than 16 arguments (spawn a lambda that "
                "captures them)");
  using R = typename std::conditional_t<
      kind == how::call, function_parts<Fn>,
      std::conditional_t<std::is_invocable_v<D &, std::decay_t<A>...>,
                         std::invoke_result<D &, std::decay_t<A>...>,
                         type_is<void>>>::type;

private:
  using plain = std::conditional_t<kind == how::call,
                                   plain_held<Fn, arg_list<A...>, std::index_sequence_for<A...>>,
                                   type_is<void>>;
  using copies = flat<D, std::decay_t<A>...>;
  using stored = typename std::conditional_t<
      kind == how::call, plain,
      std::conditional_t<kind == how::copy, type_is<copies>, type_is<copies *>>>::type;
  /* Not initialised until the constructor makes it in place (a lambda has
   * no default constructor). */
  union storage {
    stored s;
    WS_DETAIL_INLINE storage() {}
  } u;

public:
  /* Made in place, field by field (never copied: the deleted constructors
   * make the ABI return it in the caller's memory), so that the pass sees
   * each value stored once into the caller's holder and forwards it to the
   * spawned call. */
  WS_DETAIL_INLINE held(F &&fn, A &&...a) {
    void *at = &u.s;
    if constexpr (kind == how::call)
      plain::make(at, fn, static_cast<A &&>(a)...);
    else if constexpr (kind == how::copy)
      ::new (at) stored{{static_cast<F &&>(fn)}, {static_cast<A &&>(a)}...};
    else
      ::new (at) stored(new copies{{static_cast<F &&>(fn)}, {static_cast<A &&>(a)}...});
  }
  held(const held &) = delete;
  held(held &&) = delete;

  /* The type of the spawned function for a call of M arguments. */
  template <std::size_t M>
  using fn_t = std::conditional_t<
      M != margs, typename unused_fn<R, std::make_index_sequence<M>>::type,
      std::conditional_t<kind == how::call, Fn *,
                         std::conditional_t<kind == how::copy, R (*)(D, std::decay_t<A>...),
                                            R (*)(copies *)>>>;
  WS_DETAIL_INLINE auto target() {
    if constexpr (kind == how::call)
      return at<0>(u.s);
    else if constexpr (kind == how::copy)
      return &call<R, D, std::decay_t<A>...>;
    else
      return &call_boxed<R, D, std::decay_t<A>...>;
  }
  /* Argument I of a spawned call of M arguments (unused unless M is this
   * spawn's). */
  template <std::size_t I, std::size_t M> WS_DETAIL_INLINE decltype(auto) arg() {
    if constexpr (M != margs) {
      return unused{};
    } else if constexpr (kind == how::call) {
      if constexpr (plain::template kept<I, std::tuple_element_t<I, std::tuple<A...>>>::by_ref)
        return *at<I + 1>(u.s);
      else
        return (at<I + 1>(u.s));
    } else if constexpr (kind == how::copy) {
      return (at<I>(u.s));
    } else {
      return u.s;
    }
  }
};

template <class F, class... A> WS_DETAIL_INLINE held<F, A...> hold(F &&fn, A &&...a) {
  return held<F, A...>(static_cast<F &&>(fn), static_cast<A &&>(a)...);
}
} // namespace detail
} // namespace ws


/* The spawned call of M arguments, through the begin marker (above): one branch per M, the others typed but empty. */
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
#endif /* WS_SPAWN_CXX_H */
