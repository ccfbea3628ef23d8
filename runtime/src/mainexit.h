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
 * exited and no thread but the workers is left. */
void ws_main_exit_poll(ws_worker *w);

#endif
