/*
 * omp/sync.c — the team's synchronization constructs: barrier, single,
 * master and masked, critical (named too), the reductions' entry points
 * (the critical and the atomic method), copyprivate, flush, cancel (as
 * OMP_CANCELLATION=false has it: a no-op) and the error directive.
 */
#include <stdio.h>
#include <stdlib.h>

#include "barrier.h"
#include "icv.h"
#include "lock.h"
#include "refuse.h"
#include "state.h"

static inline ws_omp_itask *itask(void) { return ws_omp_cur()->itask; }

void __kmpc_barrier(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  ws_omp_barrier(itask());
}

/* single: the first thread to reach the team's k-th single construct
 * takes it (every thread meets them in the same order). */
int32_t __kmpc_single(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  ws_omp_itask *it = itask();
  if (it->team->nthreads == 1)
    return 1;
  uint64_t k = it->singles++;
  return atomic_compare_exchange_strong_explicit(&it->team->singles, &k, k + 1,
                                                 ws_acq_rel, ws_relaxed);
}

void __kmpc_end_single(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
}

int32_t __kmpc_master(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  return itask()->tid == 0;
}

void __kmpc_end_master(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
}

int32_t __kmpc_masked(ident_t *loc, int32_t gtid, int32_t filter) {
  (void)loc;
  (void)gtid;
  return itask()->tid == filter;
}

void __kmpc_end_masked(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
}

/* critical: the lock is the name's first word (32 zeroed bytes, one
 * object per name in the program). */
void __kmpc_critical(ident_t *loc, int32_t gtid, kmp_critical_name *crit) {
  (void)loc;
  (void)gtid;
  ws_omp_lock((_Atomic uint32_t *)crit);
}

void __kmpc_critical_with_hint(ident_t *loc, int32_t gtid, kmp_critical_name *crit,
                               uint32_t hint) {
  (void)hint;
  __kmpc_critical(loc, gtid, crit);
}

void __kmpc_end_critical(ident_t *loc, int32_t gtid, kmp_critical_name *crit) {
  (void)loc;
  (void)gtid;
  ws_omp_unlock((_Atomic uint32_t *)crit);
}

/* Reductions.  1: this thread combines its private copies into the
 * shared items itself, within the critical section of `lck`, which the
 * end call leaves; 2: it combines them with atomic instructions (where
 * clang allows it, ident_t's flag, unless KMP_FORCE_REDUCTION=critical).
 * In a team of one, 1 with no lock. */
enum { RED_NONE = 0, RED_CRITICAL = 1, RED_ATOMIC = 2, RED_ALONE = 3 };

static int32_t reduce(ident_t *loc, kmp_critical_name *lck) {
  ws_omp_itask *it = itask();
  if (it->team->nthreads == 1) {
    it->red_method = RED_ALONE;
    return 1;
  }
  int atomic_ok = loc && (loc->flags & KMP_IDENT_ATOMIC_REDUCE);
  if (atomic_ok && ws_omp_icvs.force_reduction != 1) {
    it->red_method = RED_ATOMIC;
    return 2;
  }
  ws_omp_lock((_Atomic uint32_t *)lck);
  it->red_method = RED_CRITICAL;
  return 1;
}

static void end_reduce(kmp_critical_name *lck) {
  ws_omp_itask *it = itask();
  if (it->red_method == RED_CRITICAL)
    ws_omp_unlock((_Atomic uint32_t *)lck);
  it->red_method = RED_NONE;
}

int32_t __kmpc_reduce_nowait(ident_t *loc, int32_t gtid, int32_t num_vars,
                             size_t reduce_size, void *reduce_data,
                             void (*reduce_func)(void *, void *),
                             kmp_critical_name *lck) {
  (void)gtid;
  (void)num_vars;
  (void)reduce_size;
  (void)reduce_data;
  (void)reduce_func;
  return reduce(loc, lck);
}

void __kmpc_end_reduce_nowait(ident_t *loc, int32_t gtid, kmp_critical_name *lck) {
  (void)loc;
  (void)gtid;
  end_reduce(lck);
}

int32_t __kmpc_reduce(ident_t *loc, int32_t gtid, int32_t num_vars, size_t reduce_size,
                      void *reduce_data, void (*reduce_func)(void *, void *),
                      kmp_critical_name *lck) {
  return __kmpc_reduce_nowait(loc, gtid, num_vars, reduce_size, reduce_data,
                              reduce_func, lck);
}

/* Without nowait: the construct's barrier comes here. */
void __kmpc_end_reduce(ident_t *loc, int32_t gtid, kmp_critical_name *lck) {
  (void)loc;
  (void)gtid;
  end_reduce(lck);
  ws_omp_barrier(itask());
}

/* single copyprivate: the thread that ran the single publishes its data;
 * the others copy it between two barriers. */
void __kmpc_copyprivate(ident_t *loc, int32_t gtid, size_t cpy_size, void *cpy_data,
                        void (*cpy_func)(void *, void *), int32_t didit) {
  (void)loc;
  (void)gtid;
  (void)cpy_size;
  ws_omp_itask *it = itask();
  ws_omp_team *team = it->team;
  if (team->nthreads == 1)
    return;
  if (didit)
    atomic_store_explicit(&team->cpy_data, cpy_data, ws_release);
  ws_omp_barrier(it);
  if (!didit)
    cpy_func(cpy_data, atomic_load_explicit(&team->cpy_data, ws_acquire));
  ws_omp_barrier(it);
}

void __kmpc_flush(ident_t *loc) {
  (void)loc;
  atomic_thread_fence(ws_seq_cst);
}

/* cancel: with cancellation off (OMP_CANCELLATION unset or false, the
 * default) a cancel construct does nothing and a cancellation point never
 * cancels, as the specification has it; on, it is refused. */
int32_t __kmpc_cancel(ident_t *loc, int32_t gtid, int32_t kind) {
  (void)loc;
  (void)gtid;
  (void)kind;
  if (ws_omp_icvs.cancellation)
    ws_omp_refuse("cancel (with OMP_CANCELLATION=true)", "__kmpc_cancel");
  return 0;
}

int32_t __kmpc_cancellationpoint(ident_t *loc, int32_t gtid, int32_t kind) {
  (void)loc;
  (void)gtid;
  (void)kind;
  return 0;
}

/* The barriers of a region that has cancel constructs. */
int32_t __kmpc_cancel_barrier(ident_t *loc, int32_t gtid) {
  __kmpc_barrier(loc, gtid);
  return 0;
}

/* The error directive at run time: severity 1 warning, 2 fatal. */
void __kmpc_error(ident_t *loc, int32_t severity, const char *message) {
  const char *where = loc && loc->psource ? loc->psource : "";
  if (severity == 2)
    ws_fatal("OpenMP error directive (%s): %s", where, message ? message : "");
  fflush(stdout);
  fprintf(stderr, "ws: OpenMP warning (%s): %s\n", where, message ? message : "");
}
