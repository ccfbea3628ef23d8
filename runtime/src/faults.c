/*
 * faults.c — the runtime's SIGSEGV handler.  The runtime's limits end at
 * pages the process may not touch: a deque's slots (slots.c), the stacks of
 * its threads (stacks.c).  A fault there is a full deque or an overflowing
 * stack: the handler, on the thread's alternate signal stack, stops the
 * program with one line naming what to raise (status 2).  A fault anywhere
 * else goes on to the disposition that was there before (by default the
 * process dies of SIGSEGV, as it would without wsff).  The deques' guard
 * pages are registered here (by slots.c); the stacks' zones are stacks.c's.
 * Everything the handler reaches is async-signal-safe: lookups in tables
 * set up before, and ws_fatal_in_handler (fatal.c).
 */
#include <signal.h>
#include <string.h>

#include "faults.h"
#include "signals.h"
#include "stacks.h"

static struct sigaction previous;
static _Atomic int installed;

/* The guard pages of all deques: [lo, hi) each, lo = 0 when the entry is
 * free. */
typedef struct guard {
  _Atomic(uintptr_t) lo, hi;
  ws_dq *_Atomic q;
} guard;
#define WS_MAX_GUARDS (2 * WS_MAX_WORKERS)
static guard guards[WS_MAX_GUARDS];
static _Atomic int guard_lock;

static ws_dq *guard_at(uintptr_t a) {
  for (int i = 0; i < WS_MAX_GUARDS; i++)
    if (a >= atomic_load_explicit(&guards[i].lo, ws_acquire) &&
        a < atomic_load_explicit(&guards[i].hi, ws_relaxed))
      return atomic_load_explicit(&guards[i].q, ws_relaxed);
  return NULL;
}

int ws_faults_guard(ws_dq *q, uintptr_t lo, uintptr_t hi) {
  while (atomic_exchange_explicit(&guard_lock, 1, ws_acquire))
    ws_cpu_relax();
  int found = -1;
  for (int i = 0; i < WS_MAX_GUARDS && found < 0; i++)
    if (!atomic_load_explicit(&guards[i].lo, ws_relaxed)) {
      atomic_store_explicit(&guards[i].hi, hi, ws_relaxed);
      atomic_store_explicit(&guards[i].q, q, ws_relaxed);
      atomic_store_explicit(&guards[i].lo, lo, ws_release);
      found = i;
    }
  atomic_store_explicit(&guard_lock, 0, ws_release);
  if (found < 0)
    return -1;
  ws_faults_install();
  return 0;
}

/* Under the lock, and hi read before the entry is freed: a thread that
 * ends while another starts (one worker, threads of the program's with
 * deques of their own) must not read the bound a new deque just wrote
 * into the entry, and unmap up to it. */
uintptr_t ws_faults_unguard(ws_dq *q) {
  uintptr_t hi = 0;
  while (atomic_exchange_explicit(&guard_lock, 1, ws_acquire))
    ws_cpu_relax();
  for (int i = 0; i < WS_MAX_GUARDS && !hi; i++)
    if (atomic_load_explicit(&guards[i].q, ws_relaxed) == q &&
        atomic_load_explicit(&guards[i].lo, ws_relaxed)) {
      hi = atomic_load_explicit(&guards[i].hi, ws_relaxed);
      atomic_store_explicit(&guards[i].lo, 0, ws_release);
    }
  atomic_store_explicit(&guard_lock, 0, ws_release);
  return hi;
}

static void on_segv(int sig, siginfo_t *si, void *uctx) {
  (void)uctx;
  uintptr_t a = (uintptr_t)si->si_addr;
  ws_dq *full = guard_at(a);
  if (full)
    ws_fatal_in_handler(WS_OVERFLOW_LINE, WS_OVERFLOW_ARGS(full));
  ws_stack_check_fault(a);
  /* Not ours: the previous disposition handles the fault, which happens
   * again when we return. */
  ws_real_sigaction(sig, &previous, NULL);
}

void ws_faults_install(void) {
  int expect = 0;
  if (!atomic_compare_exchange_strong(&installed, &expect, 1))
    return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  ws_real_sigaction(SIGSEGV, &sa, &previous);
}
