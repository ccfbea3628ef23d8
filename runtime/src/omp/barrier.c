/*
 * omp/barrier.c — a team's barrier, and the one way the OpenMP module's
 * threads wait for a word to change (barrier.h).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>

#include "../idle.h"
#include "barrier.h"
#include "echo.h"
#include "taskq.h"

#define WS_OMP_SPINS 128
#define WS_OMP_YIELDS 64
#define WS_OMP_NAP_MIN_NS 20000L

void ws_omp_wait_change(_Atomic uint32_t *word, uint32_t seen, _Atomic int *sleepers,
                        int help, long max_nap_ns) {
  ws_worker *self = ws_omp_worker_self();
  ws_worker *w = help ? self : NULL;
  unsigned fails = 0;
  long nap = WS_OMP_NAP_MIN_NS;
  int e = errno;
  while (atomic_load_explicit(word, ws_acquire) == seen) {
    if (w && ws_omp_help(w)) {
      fails = 0;
      nap = WS_OMP_NAP_MIN_NS;
      continue;
    }
    int echoed = !w && ws_omp_echo(self); /* (ws_omp_help echoes) */
    if (++fails < WS_OMP_SPINS) {
      ws_cpu_relax();
    } else if (fails < WS_OMP_SPINS + WS_OMP_YIELDS || echoed ||
               (w && ws_omp_echo(w))) {
      sched_yield();
    } else {
      if (sleepers)
        atomic_fetch_add_explicit(sleepers, 1, ws_seq_cst);
      struct timespec ts = {0, nap};
      if (atomic_load_explicit(word, ws_seq_cst) == seen)
        ws_futex(word, FUTEX_WAIT_PRIVATE, seen, &ts);
      if (sleepers)
        atomic_fetch_sub_explicit(sleepers, 1, ws_seq_cst);
      if (nap < max_nap_ns)
        nap *= 2;
      fails = WS_OMP_SPINS + WS_OMP_YIELDS - 8; /* a few more looks */
    }
  }
  errno = e;
}

void ws_omp_barrier(ws_omp_itask *it) {
  ws_omp_team *team = it->team;
  if (ws_omp_pending)
    ws_omp_resolve_to(0);
  if (team->nthreads == 1)
    return;
  uint32_t gen = atomic_load_explicit(&team->bar_gen, ws_acquire);
  if (atomic_fetch_add_explicit(&team->bar_arrived, 1, ws_acq_rel) + 1 ==
      (uint32_t)team->nthreads) {
    atomic_store_explicit(&team->bar_arrived, 0, ws_relaxed);
    atomic_store_explicit(&team->bar_gen, gen + 1, ws_seq_cst);
    if (atomic_load_explicit(&team->sleepers, ws_seq_cst) > 0) {
      int e = errno;
      ws_futex(&team->bar_gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
      errno = e;
    }
    return;
  }
  ws_omp_wait_change(&team->bar_gen, gen, &team->sleepers, 1, 2000000L);
}
