/*
 * omp/icv.h — OpenMP's internal control variables as the environment sets
 * them (icv.c): OMP_NUM_THREADS, OMP_SCHEDULE, OMP_DYNAMIC, OMP_NESTED,
 * OMP_MAX_ACTIVE_LEVELS, OMP_THREAD_LIMIT, OMP_CANCELLATION,
 * OMP_WAIT_POLICY, and libomp's KMP_FORCE_REDUCTION.  Read once, before
 * main (or at first use); a bad value stops the program with one line
 * naming the variable (status 2), as the runtime's own variables do.
 */
#ifndef WS_OMP_ICV_H
#define WS_OMP_ICV_H

#include <stdint.h>

typedef struct ws_omp_icv {
  int nthreads;          /* OMP_NUM_THREADS's first number; 0: unset */
  int sched;             /* schedule(runtime): kmp_sch_static, _dynamic_chunked, _guided_chunked, _auto */
  int64_t chunk;         /* its chunk; 0: the default */
  int dynamic;           /* OMP_DYNAMIC (reported; teams are never shrunk) */
  int max_active_levels; /* OMP_MAX_ACTIVE_LEVELS, OMP_NESTED (reported; nesting is serialized) */
  int thread_limit;      /* OMP_THREAD_LIMIT: no team larger */
  int cancellation;      /* OMP_CANCELLATION */
  long linger_ns;        /* OMP_WAIT_POLICY: how long a team's workers wait for its next region */
  int force_reduction;   /* KMP_FORCE_REDUCTION: 0 as clang allows, 1 critical, 2 atomic */
} ws_omp_icv;

extern ws_omp_icv ws_omp_icvs;

/* Reads the environment, once.  Where OMP_NUM_THREADS is set and
 * WS_NUM_WORKERS is not, it also sets the worker count (before the start:
 * ws_set_num_workers). */
void ws_omp_init(void);

#endif
