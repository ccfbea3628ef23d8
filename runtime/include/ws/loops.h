/*
 * ws/loops.h — parallel loops over [lo, hi): ws_for (C: a body and a
 * context), ws::parallel_for and ws::parallel_reduce (C++: any callable),
 * divide and conquer with ws_spawn down to a grain, automatic (OpenCilk's
 * cilk_for rule) or given at run time.  Included by ws/ws.h, after the
 * spawn macros it is written with; not a header of its own.
 */
#ifndef WS_LOOPS_H
#define WS_LOOPS_H

#ifdef __cplusplus
extern "C" {
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
#endif

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

#endif /* WS_LOOPS_H */
