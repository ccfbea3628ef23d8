/*
 * omp/loops.c — worksharing loops (for, parallel for, sections):
 * static schedules through __kmpc_for_static_init (each thread computes
 * its own iterations; as libomp's balanced split), the others through
 * __kmpc_dispatch_init / _next, where the team shares a counter of
 * iterations handed out: dynamic (chunks in turn), guided (chunks of the
 * iterations left over twice the team, at least the chunk), runtime
 * (OMP_SCHEDULE, omp_set_schedule), auto (static).  ordered schedules and
 * distribute are refused.
 */
#include <limits.h>
#include <linux/futex.h>

#include "../idle.h"
#include "barrier.h"
#include "refuse.h"
#include "state.h"

/* The schedule without its modifiers and "nomerge" form. */
static int plain(int32_t sched) {
  int s = KMP_SCH_WITHOUT_MODIFIERS(sched);
  if (s >= kmp_nm_lower && s < kmp_nm_upper)
    s -= 128;
  return s;
}

static void refuse_unsupported(int s, const char *entry) {
  if (s >= kmp_ord_lower && s < kmp_ord_upper)
    ws_omp_refuse("ordered", entry);
  if (s == kmp_distribute_static || s == kmp_distribute_static_chunked)
    ws_omp_refuse("distribute", entry);
}

/* ---- static ---- */

#define WS_OMP_STATIC_INIT(SUF, T, UT)                                         \
  void __kmpc_for_static_init_##SUF(ident_t *loc, int32_t gtid, int32_t sched,  \
                                    int32_t *plast, T *plower, T *pupper,       \
                                    T *pstride, T incr, T chunk) {              \
    (void)loc;                                                                 \
    (void)gtid;                                                                \
    int s = plain(sched);                                                      \
    refuse_unsupported(s, "__kmpc_for_static_init_" #SUF);                     \
    ws_omp_itask *it = ws_omp_cur()->itask;                                    \
    UT nth = (UT)it->team->nthreads, tid = (UT)it->tid;                        \
    T lo = *plower, hi = *pupper;                                              \
    if (incr == 0)                                                             \
      ws_fatal("a worksharing loop with a zero step");                         \
    if (incr > 0 ? hi < lo : lo < hi) { /* no iteration */                     \
      if (plast)                                                               \
        *plast = 0;                                                            \
      *pstride = incr;                                                         \
      return;                                                                  \
    }                                                                          \
    UT span = incr > 0 ? (UT)hi - (UT)lo : (UT)lo - (UT)hi;                    \
    UT step = incr > 0 ? (UT)incr : (UT)0 - (UT)incr;                          \
    UT trip = span / step + 1;                                                 \
    if (nth == 1) {                                                            \
      if (plast)                                                               \
        *plast = 1;                                                            \
      *pstride = incr > 0 ? (T)(span + 1) : (T)((UT)0 - (span + 1));           \
      return;                                                                  \
    }                                                                          \
    if (s == kmp_sch_static_chunked) {                                         \
      UT c = chunk < 1 ? 1 : (UT)chunk;                                        \
      UT cspan = c * (UT)incr;                                                 \
      *plower = (T)((UT)lo + cspan * tid);                                     \
      *pupper = (T)((UT)*plower + cspan - (UT)incr);                           \
      *pstride = (T)(cspan * nth);                                             \
      if (plast)                                                               \
        *plast = tid == ((trip - 1) / c) % nth;                                \
      return;                                                                  \
    }                                                                          \
    if (s == kmp_sch_static_balanced_chunked) { /* simd: chunk-sized parts */  \
      UT c = chunk < 1 ? 1 : (UT)chunk;                                        \
      UT part = ((trip + nth - 1) / nth + c - 1) / c * c;                      \
      UT first = part * tid;                                                   \
      if (first >= trip) {                                                     \
        *plower = (T)((UT)hi + (UT)incr);                                      \
        *pupper = hi;                                                          \
      } else {                                                                 \
        UT last = first + part - 1 < trip ? first + part - 1 : trip - 1;       \
        *plower = (T)((UT)lo + first * (UT)incr);                              \
        *pupper = (T)((UT)lo + last * (UT)incr);                               \
      }                                                                        \
      if (plast)                                                               \
        *plast = tid == (trip - 1) / part;                                     \
      *pstride = (T)trip;                                                      \
      return;                                                                  \
    }                                                                          \
    /* static (balanced): trip / nth each, the first trip % nth one more */    \
    if (trip < nth) {                                                          \
      if (tid < trip)                                                          \
        *pupper = *plower = (T)((UT)lo + tid * (UT)incr);                      \
      else                                                                     \
        *plower = (T)((UT)hi + (UT)(incr > 0 ? 1 : -1));                       \
      if (plast)                                                               \
        *plast = tid == trip - 1;                                              \
    } else {                                                                   \
      UT small = trip / nth, extras = trip % nth;                              \
      *plower = (T)((UT)lo + (UT)incr * (tid * small + (tid < extras ? tid : extras))); \
      *pupper = (T)((UT)*plower + small * (UT)incr - (tid < extras ? 0 : (UT)incr)); \
      if (plast)                                                               \
        *plast = tid == nth - 1;                                               \
    }                                                                          \
    *pstride = (T)trip;                                                        \
  }

WS_OMP_STATIC_INIT(4, int32_t, uint32_t)
WS_OMP_STATIC_INIT(4u, uint32_t, uint32_t)
WS_OMP_STATIC_INIT(8, int64_t, uint64_t)
WS_OMP_STATIC_INIT(8u, uint64_t, uint64_t)

void __kmpc_for_static_fini(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
}

/* ---- dispatch ---- */

static void dispatch_init(int32_t sched, uint64_t trip, uint64_t lb, uint64_t st,
                          int64_t chunk, const char *entry) {
  int s = plain(sched);
  refuse_unsupported(s, entry);
  ws_omp_itask *it = ws_omp_cur()->itask;
  if (s == kmp_sch_runtime || s == kmp_sch_runtime_simd) {
    s = it->sched_var;
    chunk = it->chunk_var;
  }
  switch (s) {
  case kmp_sch_static_chunked:
  case kmp_sch_dynamic_chunked:
  case kmp_sch_guided_chunked:
    break;
  case kmp_sch_static:
  case kmp_sch_static_greedy:
  case kmp_sch_static_balanced:
  case kmp_sch_auto:
    s = chunk > 0 ? kmp_sch_static_chunked : kmp_sch_static;
    break;
  case kmp_sch_static_steal:
    s = kmp_sch_dynamic_chunked;
    break;
  case kmp_sch_static_balanced_chunked:
    s = kmp_sch_static_chunked;
    break;
  default: /* trapezoidal, guided's other forms */
    s = kmp_sch_guided_chunked;
    break;
  }
  ws_omp_loop *L = &it->loop;
  L->sched = s;
  L->trip = trip;
  L->chunk = chunk < 1 ? 1 : (uint64_t)chunk;
  L->lb = (int64_t)lb;
  L->st = (int64_t)st;
  L->next = s == kmp_sch_static || s == kmp_sch_static_chunked ? (uint64_t)it->tid : 0;
  L->finished = 0;
  L->buf = NULL;
  ws_omp_team *team = it->team;
  if (team->nthreads == 1)
    return;
  /* The team's buffer for this loop, once the threads of the loop that
   * used it WS_OMP_DISP_BUFS loops ago are done with it. */
  uint64_t seq = it->loops++;
  ws_omp_disp *b = &team->disp[seq % WS_OMP_DISP_BUFS];
  uint64_t v;
  while ((v = atomic_load_explicit(&b->serves, ws_acquire)) != seq)
    ws_omp_wait_change((_Atomic uint32_t *)&b->serves, (uint32_t)v, NULL, 0, 1000000L);
  L->buf = b;
}

/* The next chunk of the calling thread's loop, as iteration numbers
 * [*from, *to]: 1, or 0 when there is none left (the thread is done with
 * the loop). */
static int dispatch_next(uint64_t *from, uint64_t *to, int32_t *plast) {
  ws_omp_itask *it = ws_omp_cur()->itask;
  ws_omp_loop *L = &it->loop;
  if (L->finished)
    return 0;
  uint64_t trip = L->trip, nth = (uint64_t)it->team->nthreads, c, n;
  switch (L->sched) {
  case kmp_sch_static: /* one part per thread, the first trip % nth one more */
    if (L->next != (uint64_t)it->tid)
      goto done;
    L->next = (uint64_t)-1;
    {
      uint64_t tid = (uint64_t)it->tid, small = trip / nth, extras = trip % nth;
      c = tid * small + (tid < extras ? tid : extras);
      n = small + (tid < extras ? 1 : 0);
    }
    if (!n)
      goto done;
    break;
  case kmp_sch_static_chunked:
    c = L->next * L->chunk;
    if (L->next >= (trip + L->chunk - 1) / L->chunk)
      goto done;
    L->next += nth;
    n = L->chunk;
    break;
  case kmp_sch_dynamic_chunked:
    if (!L->buf) {
      c = L->next;
      L->next += L->chunk;
    } else {
      c = atomic_fetch_add_explicit(&L->buf->next, L->chunk, ws_relaxed);
    }
    if (c >= trip)
      goto done;
    n = L->chunk;
    break;
  default: /* guided */
    if (!L->buf) {
      c = L->next;
      if (c >= trip)
        goto done;
      n = trip - c; /* alone: all that is left */
      L->next = trip;
      break;
    }
    c = atomic_load_explicit(&L->buf->next, ws_relaxed);
    for (;;) {
      if (c >= trip)
        goto done;
      n = (trip - c + 2 * nth - 1) / (2 * nth);
      if (n < L->chunk)
        n = L->chunk;
      if (n > trip - c)
        n = trip - c;
      if (atomic_compare_exchange_weak_explicit(&L->buf->next, &c, c + n, ws_relaxed,
                                                ws_relaxed))
        break;
    }
    break;
  }
  if (n > trip - c)
    n = trip - c;
  *from = c;
  *to = c + n - 1;
  if (plast)
    *plast = c + n == trip;
  return 1;
done:
  L->finished = 1;
  ws_omp_disp *b = L->buf;
  if (b) {
    L->buf = NULL;
    if (atomic_fetch_add_explicit(&b->done, 1, ws_acq_rel) + 1 == nth) {
      atomic_store_explicit(&b->next, 0, ws_relaxed);
      atomic_store_explicit(&b->done, 0, ws_relaxed);
      uint64_t s = atomic_load_explicit(&b->serves, ws_relaxed) + WS_OMP_DISP_BUFS;
      atomic_store_explicit(&b->serves, s, ws_release);
      ws_futex((_Atomic uint32_t *)&b->serves, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
    }
  }
  return 0;
}

#define WS_OMP_DISPATCH(SUF, T, UT)                                            \
  void __kmpc_dispatch_init_##SUF(ident_t *loc, int32_t gtid, int32_t sched,    \
                                  T lb, T ub, T st, T chunk) {                  \
    (void)loc;                                                                 \
    (void)gtid;                                                                \
    if (st == 0)                                                               \
      ws_fatal("a worksharing loop with a zero step");                         \
    UT trip;                                                                   \
    if (st > 0 ? ub < lb : lb < ub)                                            \
      trip = 0;                                                                \
    else if (st > 0)                                                           \
      trip = ((UT)ub - (UT)lb) / (UT)st + 1;                                   \
    else                                                                       \
      trip = ((UT)lb - (UT)ub) / ((UT)0 - (UT)st) + 1;                         \
    dispatch_init(sched, (uint64_t)trip, (uint64_t)(int64_t)lb,                \
                  (uint64_t)(int64_t)st, (int64_t)chunk,                       \
                  "__kmpc_dispatch_init_" #SUF);                               \
  }                                                                            \
  int32_t __kmpc_dispatch_next_##SUF(ident_t *loc, int32_t gtid,               \
                                     int32_t *plast, T *plower, T *pupper,      \
                                     T *pstride) {                              \
    (void)loc;                                                                 \
    (void)gtid;                                                                \
    uint64_t from, to;                                                         \
    if (!dispatch_next(&from, &to, plast))                                     \
      return 0;                                                                \
    ws_omp_loop *L = &ws_omp_cur()->itask->loop;                               \
    *plower = (T)((uint64_t)L->lb + from * (uint64_t)L->st);                   \
    *pupper = (T)((uint64_t)L->lb + to * (uint64_t)L->st);                     \
    if (pstride)                                                               \
      *pstride = (T)L->st;                                                     \
    return 1;                                                                  \
  }                                                                            \
  /* ordered loops only, which are refused at their init */                    \
  void __kmpc_dispatch_fini_##SUF(ident_t *loc, int32_t gtid) {                \
    (void)loc;                                                                 \
    (void)gtid;                                                                \
  }

WS_OMP_DISPATCH(4, int32_t, uint32_t)
WS_OMP_DISPATCH(4u, uint32_t, uint32_t)
WS_OMP_DISPATCH(8, int64_t, uint64_t)
WS_OMP_DISPATCH(8u, uint64_t, uint64_t)

/* The end of a dynamically scheduled loop (clang 19): dispatch_next
 * already said so. */
void __kmpc_dispatch_deinit(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
}
