/*
 * faults.h — the runtime's SIGSEGV handler (faults.c).
 */
#ifndef WS_FAULTS_H
#define WS_FAULTS_H

/* Installs it, once: a fault in a deque's guard page or where a stack of
 * the runtime's threads overflows stops the program with a message; any
 * other goes on to the handler that was there before. */
void ws_faults_install(void);

#endif
