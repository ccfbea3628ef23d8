/*
 * idle.c — idle workers sleep on one futex word, ws_rt.wake_seq: a waker
 * bumps it and wakes one (or all), a sleeper waits while it is unchanged,
 * at most its nap.  Sleepers are counted, so that a waker with nobody to
 * wake makes no system call.
 *
 * Parked workers (beyond the count, ws_set_num_workers) wait on another
 * word, ws_rt.park_seq, with no timeout: only a change of the count, the
 * shutdown or the main thread's pthread_exit (mainexit.c) wakes them.
 *
 * Entry wakes: work appears where serial code calls spawning code, and
 * nothing on the spawn's fast path may look for sleepers.  A sleeper that
 * asks sets the wake half of each other worker's entry word (deque.h),
 * which the test every entry point already makes (__ws_tail) sees: that
 * entry's slow path clears it and wakes one.  The sleeper asks after it
 * counts itself a sleeper and before it waits: an entry that sees the
 * request sees the sleeper, and the wait returns at once when the wake
 * came first.
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
  ws_unpark_all();
}

void ws_unpark_all(void) {
  atomic_fetch_add_explicit(&ws_rt.park_seq, 1, ws_seq_cst);
  ws_futex(&ws_rt.park_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

void ws_park_wait(uint32_t seq, const struct timespec *timeout) {
  ws_futex(&ws_rt.park_seq, FUTEX_WAIT_PRIVATE, seq, timeout);
}

void ws_entry_wake(void) {
  atomic_store_explicit(&ws_my_dq.entry.e.wake, 0, ws_relaxed);
  atomic_thread_fence(ws_acquire); /* the request, then its sleeper */
  ws_wake_one();
}

/* Sets the wake half of every other ready worker's entry word, where it is
 * not set already (a store would take the owner's line for nothing). */
static void ask_entry_wake(ws_worker *self) {
  int n = atomic_load_explicit(&ws_rt.nworkers, ws_acquire);
  for (int i = 0; i < n; i++) {
    ws_worker *v = ws_rt.workers[i];
    if (v == self || !atomic_load_explicit(&v->ready, ws_acquire))
      continue;
    if (!atomic_load_explicit(&v->dq->entry.e.wake, ws_relaxed))
      atomic_store_explicit(&v->dq->entry.e.wake, 1, ws_release);
  }
}

int ws_sleep_a_while(ws_worker *w, long ns, int ask_entry) {
  uint32_t seq = atomic_load_explicit(&ws_rt.wake_seq, ws_acquire);
  atomic_fetch_add_explicit(&ws_rt.sleepers, 1, ws_seq_cst);
  if (ask_entry)
    ask_entry_wake(w);
  if (!atomic_load_explicit(&ws_rt.shutdown, ws_acquire) &&
      !atomic_load_explicit(&ws_rt.submitted, ws_seq_cst)) {
    struct timespec ts = {0, ns};
    ws_futex(&ws_rt.wake_seq, FUTEX_WAIT_PRIVATE, seq, &ts);
  }
  atomic_fetch_sub_explicit(&ws_rt.sleepers, 1, ws_seq_cst);
  w->c.sleeps++;
  return atomic_load_explicit(&ws_rt.wake_seq, ws_acquire) != seq;
}
