/*
 * signals.h — the program's signal handlers, run marked (signals.c), and
 * the runtime's own, installed past the marking.
 */
#ifndef WS_SIGNALS_H
#define WS_SIGNALS_H

#include <signal.h>

/* glibc's sigaction(), under its exported alias: the runtime's own
 * handlers are not the program's. */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);
static inline int ws_real_sigaction(int sig, const struct sigaction *act,
                                    struct sigaction *old) {
  return __sigaction(sig, act, old);
}

/* From an entry point's slow path while the thread has handler marks:
 * stops the program with one line if a handler of the program's is
 * running on this thread; else forgets the marks of handlers that left
 * by a jump, and returns.  Async-signal-safe. */
void ws_refuse_in_handler(void);

#endif
