/*
 * ws/reducer.h — reducers (hyperobjects): a variable that spawned tasks
 * update in parallel without a race, and whose final value is the serial
 * elision's for any associative operation.  Included by ws/ws.h.
 *
 *   long sum = 0;                                   // the variable itself
 *   ws_reducer r;
 *   ws_reducer_register(&r, &ws_monoid_sum_long, &sum);
 *   ...  ws_reducer_sum_long(&r, x);  ...           // in any task
 *   ...  WS_VIEW(long, &r) += x;  ...               // the same, by hand
 *   ws_sync();
 *   ws_reducer_unregister(&r);                      // sum holds the result
 *
 * A monoid is a type, an identity and an associative reduce; each strand
 * of the computation updates a view of its own, and the runtime reduces
 * the views in serial order (docs/language.md, "Reducers").  Compiled
 * without -fws-fencefree the reducer is the variable: ws_reducer_view
 * returns its address and nothing else happens.
 */
#ifndef WS_REDUCER_H
#define WS_REDUCER_H

#include <limits.h>
#include <math.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A monoid over views of `size` bytes, aligned to `align` (at most 4096).
 *   identity(v)      writes the identity into the uninitialised view v
 *   reduce(l, r)     l := l (x) r, where l comes first in serial order;
 *                    r is then destroyed and its storage freed
 *   destroy(v)       frees what v owns (NULL: nothing)
 *   commutative      1: views may be reduced in any order (sum, min, max),
 *                    which spares the ordering (docs/language.md)
 * Views move by their address, never by copying their bytes. */
typedef struct ws_monoid {
  size_t size, align;
  void (*identity)(void *view);
  void (*reduce)(void *left, void *right);
  void (*destroy)(void *view);
  int commutative;
} ws_monoid;

/* A registered reducer: its monoid and its variable, which is the view of
 * the strand that registered it (and the serial elision's storage). */
typedef struct ws_reducer {
  const ws_monoid *monoid;
  void *var;
} ws_reducer;

#if defined(WS_FENCEFREE)
/* From here on, `var` is updated through views (ws_reducer_view), by this
 * thread, its tasks and its calls of spawning code only.  Unregister it
 * before the registering strand returns. */
void ws_reducer_register(ws_reducer *r, const ws_monoid *m, void *var);
/* Reduces every view into `var` and forgets the reducer.  Call it in the
 * strand that registered it, after the ws_sync that waits for every spawn
 * made since the registration; `var` then holds the serial elision's
 * value.  Elsewhere the program stops with a message. */
void ws_reducer_unregister(ws_reducer *r);
/* The calling strand's view (created from the identity on first use).
 * Valid until the strand spawns, syncs, or calls code that may: fetch it
 * again after those, or fetch it once per loop that does none. */
void *ws_reducer_view(ws_reducer *r);
/* Reduces the registering strand's views into `var` and returns it (the
 * value so far in serial order), keeping the reducer registered: where
 * ws_reducer_unregister may be called. */
void *ws_reducer_get(ws_reducer *r);
#else
static inline void ws_reducer_register(ws_reducer *r, const ws_monoid *m,
                                       void *var) {
  r->monoid = m;
  r->var = var;
}
static inline void ws_reducer_unregister(ws_reducer *r) { (void)r; }
static inline void *ws_reducer_view(ws_reducer *r) { return r->var; }
static inline void *ws_reducer_get(ws_reducer *r) { return r->var; }
#endif

#ifdef __cplusplus
#define WS_ALIGNOF_(T) alignof(T)
#else
#define WS_ALIGNOF_(T) _Alignof(T)
#endif

/* The view as an lvalue of type T: WS_VIEW(long, &r) += x. */
#define WS_VIEW(T, r) (*(T *)ws_reducer_view(r))

/* Built-in monoids: sum, min and max of long, unsigned long and double,
 * with their update functions: ws_reducer_sum_long(&r, x) and so on.  The
 * tables are static: the serial elision links no runtime. */
#define WS_BUILTIN_MONOIDS(T, name, lowest, highest)                           \
  static inline void ws_identity_sum_##name(void *v) { *(T *)v = 0; }          \
  static inline void ws_identity_min_##name(void *v) { *(T *)v = highest; }    \
  static inline void ws_identity_max_##name(void *v) { *(T *)v = lowest; }     \
  static inline void ws_reduce_sum_##name(void *l, void *r) {                  \
    *(T *)l += *(T *)r;                                                        \
  }                                                                            \
  static inline void ws_reduce_min_##name(void *l, void *r) {                  \
    if (*(T *)r < *(T *)l)                                                     \
      *(T *)l = *(T *)r;                                                       \
  }                                                                            \
  static inline void ws_reduce_max_##name(void *l, void *r) {                  \
    if (*(T *)r > *(T *)l)                                                     \
      *(T *)l = *(T *)r;                                                       \
  }                                                                            \
  static const ws_monoid ws_monoid_sum_##name = {                              \
      sizeof(T), WS_ALIGNOF_(T), ws_identity_sum_##name, ws_reduce_sum_##name,    \
      NULL, 1};                                                                \
  static const ws_monoid ws_monoid_min_##name = {                              \
      sizeof(T), WS_ALIGNOF_(T), ws_identity_min_##name, ws_reduce_min_##name,    \
      NULL, 1};                                                                \
  static const ws_monoid ws_monoid_max_##name = {                              \
      sizeof(T), WS_ALIGNOF_(T), ws_identity_max_##name, ws_reduce_max_##name,    \
      NULL, 1};                                                                \
  static inline void ws_reducer_sum_##name(ws_reducer *r, T x) {               \
    *(T *)ws_reducer_view(r) += x;                                             \
  }                                                                            \
  static inline void ws_reducer_min_##name(ws_reducer *r, T x) {               \
    T *v = (T *)ws_reducer_view(r);                                            \
    if (x < *v)                                                                \
      *v = x;                                                                  \
  }                                                                            \
  static inline void ws_reducer_max_##name(ws_reducer *r, T x) {               \
    T *v = (T *)ws_reducer_view(r);                                            \
    if (x > *v)                                                                \
      *v = x;                                                                  \
  }

WS_BUILTIN_MONOIDS(long, long, LONG_MIN, LONG_MAX)
WS_BUILTIN_MONOIDS(unsigned long, ulong, 0, ULONG_MAX)
WS_BUILTIN_MONOIDS(double, double, -HUGE_VAL, HUGE_VAL)

#ifdef __cplusplus
} /* extern "C" */

#include <iterator>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>

namespace ws {
/* A monoid for ws::reducer is a class with
 *   using value_type = T;
 *   static T identity();
 *   static void reduce(T &left, T &right);   // left = left (x) right
 * and, optionally, `static constexpr bool commutative = true;`. */
template <class T> struct sum {
  using value_type = T;
  static constexpr bool commutative = true;
  static T identity() { return T(); }
  static void reduce(T &left, T &right) { left += right; }
};
template <class T> struct min {
  using value_type = T;
  static constexpr bool commutative = true;
  static T identity() { return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max(); }
  static void reduce(T &left, T &right) {
    if (right < left)
      left = right;
  }
};
template <class T> struct max {
  using value_type = T;
  static constexpr bool commutative = true;
  static T identity() { return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest(); }
  static void reduce(T &left, T &right) {
    if (left < right)
      left = right;
  }
};
/* Concatenation of a sequence container (std::string, std::vector,
 * std::list...): not commutative, the order is the serial one. */
template <class C> struct append {
  using value_type = C;
  static C identity() { return C(); }
  static void reduce(C &left, C &right) {
    left.insert(left.end(), std::make_move_iterator(right.begin()),
                std::make_move_iterator(right.end()));
  }
};

namespace detail {
template <class M, class = void> struct is_commutative : std::false_type {};
template <class M>
struct is_commutative<M, std::void_t<decltype(M::commutative)>>
    : std::integral_constant<bool, M::commutative> {};

/* The C table of monoid M: views are constructed in place. */
template <class M> struct monoid_table {
  using T = typename M::value_type;
  static void identity(void *v) { ::new (v) T(M::identity()); }
  static void reduce(void *l, void *r) {
    M::reduce(*static_cast<T *>(l), *static_cast<T *>(r));
  }
  static void destroy(void *v) { static_cast<T *>(v)->~T(); }
  static constexpr ws_monoid table = {sizeof(T), alignof(T), identity, reduce,
                                      destroy, is_commutative<M>::value};
};
} // namespace detail

/* A reducer over monoid M: it holds the variable (the identity, or
 * constructed from the arguments) and registers it; the destructor
 * unregisters it, so read the value with get() after the ws_sync.  Neither
 * copied nor moved: views are found by its address. */
template <class M> class reducer {
public:
  using value_type = typename M::value_type;
  reducer() : value_(M::identity()) { enroll(); }
  template <class A0, class... A>
  explicit reducer(A0 &&arg0, A &&...args)
      : value_(std::forward<A0>(arg0), std::forward<A>(args)...) {
    enroll();
  }
  ~reducer() { ws_reducer_unregister(&r_); }
  reducer(const reducer &) = delete;
  reducer &operator=(const reducer &) = delete;

  /* This strand's view (see ws_reducer_view for how long it stays valid). */
  value_type &view() { return *static_cast<value_type *>(ws_reducer_view(&r_)); }
  value_type &operator*() { return view(); }
  value_type *operator->() { return &view(); }
  /* The value so far, in the strand that constructed the reducer. */
  value_type &get() { return *static_cast<value_type *>(ws_reducer_get(&r_)); }

private:
  void enroll() { ws_reducer_register(&r_, &detail::monoid_table<M>::table, &value_); }
  value_type value_;
  ws_reducer r_;
};
} // namespace ws
#endif

#endif /* WS_REDUCER_H */
