/*
 * shutdown.h — the end of the runtime (shutdown.c).
 */
#ifndef WS_SHUTDOWN_H
#define WS_SHUTDOWN_H

/* Registers the exit handler (workers stopped and joined, statistics) and
 * the fork handler (a child runs serially on the forking thread's deque).
 * Once, by the configuration, after it set ws_rt. */
void ws_shutdown_at_exit(void);

#endif
