/*
 * faults.h — the runtime's SIGSEGV handler, and the deques' guard pages it
 * knows (faults.c).
 */
#ifndef WS_FAULTS_H
#define WS_FAULTS_H

#include <stdint.h>

#include "worker.h"

/* The line when a deque is full: from a slow path (slots.c) or from the
 * handler, after a push faulted in its guard page. */
#define WS_OVERFLOW_LINE                                                       \
  "deque overflow on worker %d: more than %ld outstanding spawns; raise "      \
  "WS_DEQUE_SIZE (at most %ld) or spawn less deeply"
#define WS_OVERFLOW_ARGS(q)                                                    \
  (q)->w ? (q)->w->id : -1, (long)((q)->end - (q)->base), (long)WS_MAX_DEQUE_SIZE

/* Installs it, once: a fault in a deque's guard page or where a stack of
 * the runtime's threads overflows stops the program with a message; any
 * other goes on to the handler that was there before. */
void ws_faults_install(void);

/* Registers [lo, hi) as q's guard page and installs the handler: 0, or -1
 * when the table is full. */
int ws_faults_guard(ws_dq *q, uintptr_t lo, uintptr_t hi);
/* Forgets q's guard page: its hi, or 0 if it had none. */
uintptr_t ws_faults_unguard(ws_dq *q);

#endif
