/*
 * signals.c — spawning code called from a signal handler stops the program
 * with one line instead of hanging.  The handler may have interrupted its
 * thread anywhere, in the middle of a push, a take or a hand-over: no
 * deque or lock of the thread's can be used there.  So libws interposes
 * sigaction() and signal() for the executable: the kernel gets a
 * trampoline, which runs the program's handler between a mark on the
 * thread and its removal.  An entry point into spawning code tests the
 * number of marks next to the tail it loads (tail.c: a load and a test);
 * where there are some, the slow path (ws_bind_caller) asks whether a
 * marked handler is still running here and stops the program if so.
 *
 * A handler that leaves by siglongjmp (or longjmp) takes its mark with it
 * only in effect: the mark stays until the next entry point, which finds
 * the handler gone (the stack is above the handler's frame again, or the
 * handler's signal, blocked while it ran, no longer is) and forgets it.
 * The program's handlers installed otherwise (sigset(), a shared library's
 * sigaction) are not marked.
 */
#define _GNU_SOURCE /* sysv_signal, sigabbrev_np */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "signals.h"
#include "worker.h"

/* The program's handlers, by the form the kernel calls: one table per
 * trampoline, so that a signal that comes while sigaction() changes the
 * form still finds its handler in the old one's table. */
static void (*_Atomic info_handlers[NSIG])(int, siginfo_t *, void *);
static void (*_Atomic plain_handlers[NSIG])(int);
/* SA_NODEFER: the kernel does not block the signal while its handler runs. */
static _Atomic unsigned char nodefer[NSIG];

/* A handler running on this thread (or left by a jump): its trampoline's
 * frame, the alternate signal stack [alt_lo, alt_hi) it ran on (0 when on
 * the thread's stack), its signal, and whether that signal is blocked
 * while it runs. */
typedef struct handler_mark {
  uintptr_t frame, alt_lo, alt_hi;
  int sig, blocks_sig;
} handler_mark;
/* More nested handlers than this: the outer marks stand for the inner. */
#define WS_MAX_HANDLER_MARKS 16
static __thread handler_mark marks[WS_MAX_HANDLER_MARKS]
    __attribute__((tls_model("initial-exec")));

static int mark_live(const handler_mark *m, uintptr_t sp, int on_alt,
                     const sigset_t *blocked) {
  if (m->alt_hi) {
    if (sp < m->alt_lo || sp >= m->alt_hi)
      return 0; /* it ran on the alternate stack; we are off it */
  } else if (on_alt) {
    return 1; /* a handler on the alternate stack interrupted it */
  }
  if (sp >= m->frame)
    return 0; /* its frame is gone: the handler jumped out */
  return !m->blocks_sig || sigismember(blocked, m->sig);
}

/* Forgets the marks of handlers no longer running (innermost first); the
 * number left, each a handler still running.  Async-signal-safe. */
static int live_marks(void) {
  int n = atomic_load_explicit(&ws_my_dq.entry.e.handler_marks, ws_relaxed);
  if (n > WS_MAX_HANDLER_MARKS)
    n = WS_MAX_HANDLER_MARKS;
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
  stack_t alt;
  int on_alt = sigaltstack(NULL, &alt) == 0 && (alt.ss_flags & SS_ONSTACK);
  sigset_t blocked;
  sigemptyset(&blocked);
  sigprocmask(SIG_BLOCK, NULL, &blocked);
  while (n > 0 && !mark_live(&marks[n - 1], sp, on_alt, &blocked))
    n--;
  atomic_store_explicit(&ws_my_dq.entry.e.handler_marks, n, ws_relaxed);
  return n;
}

void ws_refuse_in_handler(void) {
  int saved = errno;
  int n = live_marks();
  errno = saved;
  if (!n)
    return;
  int sig = marks[n - 1].sig;
  const char *name = sigabbrev_np(sig);
  ws_fatal_in_handler("a spawning function was called from a signal handler "
                      "(signal %d%s%s): spawning code cannot run there; "
                      "record the signal in the handler (a volatile "
                      "sig_atomic_t) and call the function after it returns",
                      sig, name ? ", SIG" : "", name ? name : "");
}

static void run_marked(int sig, siginfo_t *si, void *uc, int plain) {
  int n = atomic_load_explicit(&ws_my_dq.entry.e.handler_marks, ws_relaxed);
  if (n >= WS_MAX_HANDLER_MARKS) {
    int saved = errno;
    n = live_marks();
    errno = saved;
  }
  if (n < WS_MAX_HANDLER_MARKS) {
    handler_mark *m = &marks[n];
    m->frame = (uintptr_t)__builtin_frame_address(0);
    const stack_t *ss = &((const ucontext_t *)uc)->uc_stack;
    uintptr_t lo = (uintptr_t)ss->ss_sp, hi = lo + ss->ss_size;
    int on_alt = !(ss->ss_flags & SS_DISABLE) && m->frame >= lo && m->frame < hi;
    m->alt_lo = on_alt ? lo : 0;
    m->alt_hi = on_alt ? hi : 0;
    m->sig = sig;
    m->blocks_sig = !atomic_load_explicit(&nodefer[sig], ws_relaxed);
    /* The mark is whole before an entry point can count it. */
    atomic_signal_fence(memory_order_release);
    atomic_store_explicit(&ws_my_dq.entry.e.handler_marks, n + 1, ws_relaxed);
  }
  if (plain)
    atomic_load_explicit(&plain_handlers[sig], ws_relaxed)(sig);
  else
    atomic_load_explicit(&info_handlers[sig], ws_relaxed)(sig, si, uc);
  atomic_store_explicit(&ws_my_dq.entry.e.handler_marks, n, ws_relaxed);
}

static void run_info(int sig, siginfo_t *si, void *uc) { run_marked(sig, si, uc, 0); }
static void run_plain(int sig, siginfo_t *si, void *uc) { run_marked(sig, si, uc, 1); }

int sigaction(int sig, const struct sigaction *restrict act,
              struct sigaction *restrict old) {
  if (sig < 1 || sig >= NSIG)
    return __sigaction(sig, act, old);
  void (*prev_info)(int, siginfo_t *, void *) =
      atomic_load_explicit(&info_handlers[sig], ws_relaxed);
  void (*prev_plain)(int) = atomic_load_explicit(&plain_handlers[sig], ws_relaxed);
  unsigned char prev_nodefer = atomic_load_explicit(&nodefer[sig], ws_relaxed);
  struct sigaction k;
  if (act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN) {
    k = *act;
    /* The table first: a signal that comes before the kernel has the new
     * action runs the old trampoline, which finds its own table's entry. */
    if (act->sa_flags & SA_SIGINFO) {
      atomic_store_explicit(&info_handlers[sig], act->sa_sigaction, ws_relaxed);
      k.sa_sigaction = run_info;
    } else {
      atomic_store_explicit(&plain_handlers[sig], act->sa_handler, ws_relaxed);
      k.sa_sigaction = run_plain;
      k.sa_flags |= SA_SIGINFO; /* for the context: which stack it runs on */
    }
    atomic_store_explicit(&nodefer[sig], !!(act->sa_flags & SA_NODEFER), ws_relaxed);
    act = &k;
  }
  if (__sigaction(sig, act, old)) {
    int saved = errno;
    atomic_store_explicit(&info_handlers[sig], prev_info, ws_relaxed);
    atomic_store_explicit(&plain_handlers[sig], prev_plain, ws_relaxed);
    atomic_store_explicit(&nodefer[sig], prev_nodefer, ws_relaxed);
    errno = saved;
    return -1;
  }
  /* The program sees its own handler, never a trampoline. */
  if (old && (old->sa_flags & SA_SIGINFO)) {
    if (old->sa_sigaction == run_info) {
      old->sa_sigaction = prev_info;
    } else if (old->sa_sigaction == run_plain) {
      old->sa_handler = prev_plain;
      old->sa_flags &= ~SA_SIGINFO;
    }
  }
  return 0;
}

/* signal() through our sigaction: handler with flags, the signal itself
 * blocked while it runs when block_self. */
static sighandler_t set_handler(int sig, sighandler_t handler, int flags,
                                int block_self) {
  if (handler == SIG_ERR) {
    errno = EINVAL;
    return SIG_ERR;
  }
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  if (block_self && sig >= 1 && sig < NSIG)
    sigaddset(&sa.sa_mask, sig);
  sa.sa_flags = flags;
  return sigaction(sig, &sa, &old) ? SIG_ERR : old.sa_handler;
}

/* glibc's signal(): BSD semantics. */
sighandler_t signal(int sig, sighandler_t handler) {
  return set_handler(sig, handler, SA_RESTART, 1);
}

/* signal() of a strict ISO C or XSI program (glibc redirects it here):
 * System V semantics, the handler reset on delivery. */
sighandler_t __sysv_signal(int sig, sighandler_t handler) {
  return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER, 0);
}

sighandler_t sysv_signal(int sig, sighandler_t handler) {
  return __sysv_signal(sig, handler);
}
