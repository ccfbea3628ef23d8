/*
 * idle.c — idle workers sleep on one futex word, ws_rt.wake_seq: a waker
 * bumps it and wakes one (or all), a sleeper waits while it is unchanged,
 * at most its nap.  Sleepers are counted, so that a waker with nobody to
 * wake makes no system call.
 */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "idle.h"

long ws_futex(_Atomic uint32_t *addr, int op, uint32_t val,
              const struct timespec *timeout) {
  return syscall(SYS_futex, (uint32_t *)addr, op, val, timeout, NULL, 0);
}

void ws_wake_one(void) {
  if (atomic_load_explicit(&ws_rt.sleepers, ws_relaxed) > 0) {
    atomic_fetch_add_explicit(&ws_rt.wake_seq, 1, ws_release);
    ws_futex(&ws_rt.wake_seq, FUTEX_WAKE_PRIVATE, 1, NULL);
  }
}

void ws_wake_all(void) {
  atomic_fetch_add_explicit(&ws_rt.wake_seq, 1, ws_release);
  ws_futex(&ws_rt.wake_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

void ws_sleep_a_while(ws_worker *w, long ns) {
  uint32_t seq = atomic_load_explicit(&ws_rt.wake_seq, ws_acquire);
  atomic_fetch_add_explicit(&ws_rt.sleepers, 1, ws_seq_cst);
  if (!atomic_load_explicit(&ws_rt.shutdown, ws_acquire) &&
      !atomic_load_explicit(&ws_rt.submitted, ws_seq_cst)) {
    struct timespec ts = {0, ns};
    ws_futex(&ws_rt.wake_seq, FUTEX_WAIT_PRIVATE, seq, &ts);
  }
  atomic_fetch_sub_explicit(&ws_rt.sleepers, 1, ws_seq_cst);
  w->c.sleeps++;
}
