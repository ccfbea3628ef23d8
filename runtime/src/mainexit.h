/*
 * mainexit.h — the process ends when its main thread has left by
 * pthread_exit() and only the workers are left (mainexit.c).
 */
#ifndef WS_MAINEXIT_H
#define WS_MAINEXIT_H

#include "worker.h"

/* On the main thread, before main: notice when it exits. */
void ws_main_exit_watch(void);

/* From an idle worker, before it sleeps: exit(0) if the main thread has
 * exited and no thread but the workers is left.  Only worker 1 looks, at
 * most every WS_MAIN_EXIT_POLL_NS; it waits no longer than that while it
 * is parked, once the main thread has exited. */
void ws_main_exit_poll(ws_worker *w);
#define WS_MAIN_EXIT_POLL_NS 5000000L
/* The main thread has left by pthread_exit. */
int ws_main_exited(void);

#endif
