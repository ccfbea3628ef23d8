/*
 * omp/lock.c — the futex lock's slow paths (lock.h).  errno is the
 * program's: the futex calls leave it as they found it.
 */
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>

#include "../idle.h"
#include "echo.h"
#include "lock.h"

#define WS_OMP_LOCK_SPINS 128

void ws_omp_lock_wait(_Atomic uint32_t *w) {
  for (int i = 0; i < WS_OMP_LOCK_SPINS; i++) {
    ws_cpu_relax();
    if (atomic_load_explicit(w, memory_order_relaxed) == 0 && ws_omp_trylock(w))
      return;
  }
  int e = errno;
  ws_worker *self = ws_tls_self;
  while (atomic_exchange_explicit(w, 2, memory_order_acquire) != 0) {
    if (ws_omp_echo(self)) /* a THEP thief may wait on us: no sleep */
      sched_yield();
    else
      ws_futex(w, FUTEX_WAIT_PRIVATE, 2, NULL);
  }
  errno = e;
}

void ws_omp_lock_wake(_Atomic uint32_t *w) {
  int e = errno;
  ws_futex(w, FUTEX_WAKE_PRIVATE, 1, NULL);
  errno = e;
}
