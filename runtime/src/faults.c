/*
 * faults.c — the runtime's SIGSEGV handler.  The runtime's limits end at
 * pages the process may not touch: a deque's slots (slots.c), the stacks of
 * its threads (stacks.c).  A fault there is a full deque or an overflowing
 * stack: the handler, on the thread's alternate signal stack, stops the
 * program with one line naming what to raise (status 2).  A fault anywhere
 * else goes on to the disposition that was there before (by default the
 * process dies of SIGSEGV, as it would without wsff).
 */
#include <signal.h>
#include <string.h>

#include "faults.h"
#include "signals.h"
#include "stacks.h"
#include "worker.h"

static struct sigaction previous;
static _Atomic int installed;

static void on_segv(int sig, siginfo_t *si, void *uctx) {
  (void)uctx;
  uintptr_t a = (uintptr_t)si->si_addr;
  ws_dq *full = ws_deque_guard_at(a);
  if (full)
    ws_deque_overflow(full);
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
