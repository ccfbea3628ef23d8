/*
 * stacks.c — the stacks of the runtime's threads.  A worker's stack is
 * WS_STACK_SIZE bytes with a guard of WS_STACK_GUARD below it; the main
 * thread's grows to its limit (ulimit -s) with the kernel's gap below.  A
 * recursion that reaches either faults there, on the thread's alternate
 * signal stack, and the handler (faults.c) stops the program with one line
 * naming the stack to raise (status 2), instead of dying of SIGSEGV.
 */
#define _GNU_SOURCE /* pthread_getattr_np */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "stacks.h"
#include "worker.h"

/* Room for the handler and the message it formats. */
#define WS_SIGNAL_STACK_SIZE ((size_t)64 << 10)
/* Where a main thread's stack overflow faults, around the lowest address
 * its limit allows: the kernel keeps a gap of 1 MiB below the stack (and
 * above the mapping under it, when the limit is higher than the room). */
#define WS_MAIN_STACK_ZONE ((uintptr_t)2 << 20)

static size_t worker_stack_size;
/* The main thread's stack limit when it bound (KiB; 0: unlimited), for the
 * handler, which may not call getrlimit or format with stdio. */
static unsigned long main_limit_kib;

/* The calling thread's overflow zone [lo, hi), and which worker it is. */
static __thread uintptr_t zone_lo, zone_hi;
static __thread int zone_worker = -1;

void ws_stack_attr(pthread_attr_t *attr, size_t size) {
  worker_stack_size = size;
  pthread_attr_setstacksize(attr, size);
  pthread_attr_setguardsize(attr, WS_STACK_GUARD);
}

static void give_signal_stack(void) {
  stack_t current;
  if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE))
    return; /* the program has its own */
  void *p = mmap(NULL, WS_SIGNAL_STACK_SIZE, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return; /* no message on overflow, as without wsff */
  stack_t ss = {.ss_sp = p, .ss_size = WS_SIGNAL_STACK_SIZE, .ss_flags = 0};
  if (sigaltstack(&ss, NULL))
    munmap(p, WS_SIGNAL_STACK_SIZE);
}

void ws_stack_bind(int worker) {
  pthread_attr_t attr;
  void *addr;
  size_t size, guard = 0;
  if (pthread_getattr_np(pthread_self(), &attr))
    return;
  int got = pthread_attr_getstack(&attr, &addr, &size) == 0 &&
            pthread_attr_getguardsize(&attr, &guard) == 0;
  pthread_attr_destroy(&attr);
  if (!got)
    return;
  uintptr_t lo = (uintptr_t)addr;
  if (worker == 0) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
      main_limit_kib = (unsigned long)(rl.rlim_cur >> 10);
    zone_lo = lo > WS_MAIN_STACK_ZONE ? lo - WS_MAIN_STACK_ZONE : 0;
    zone_hi = lo + WS_MAIN_STACK_ZONE;
  } else {
    zone_lo = lo - guard;
    zone_hi = lo;
  }
  zone_worker = worker;
  give_signal_stack();
}

void ws_stack_check_fault(uintptr_t addr) {
  if (zone_worker < 0 || addr < zone_lo || addr >= zone_hi)
    return;
  if (zone_worker > 0)
    ws_fatal_in_handler("stack overflow on worker %d: raise WS_STACK_SIZE (now "
                        "%zuK) or recurse less deeply",
                        zone_worker, worker_stack_size >> 10);
  if (main_limit_kib)
    ws_fatal_in_handler("stack overflow in the main thread (worker 0): raise "
                        "its stack limit (ulimit -s, now %lu KiB) or recurse "
                        "less deeply",
                        main_limit_kib);
  ws_fatal_in_handler("stack overflow in the main thread (worker 0): raise its "
                      "stack limit (ulimit -s, now unlimited) or recurse less "
                      "deeply");
}
