/*
 * rt.c — the runtime's shared state, ws_rt (worker.h): what configure.c
 * fills before main, startup.c when the workers start, and every layer
 * above reads.  Alone in its file so that a program of the deques without
 * the scheduler (the tools' deque under test) links the same definition.
 * A reference to ws_rt does not link configure.c's constructor: code that
 * needs the configuration asks ws_runtime_configured() (worker.h).
 */
#include <pthread.h>

#include "worker.h"

ws_runtime ws_rt;
pthread_mutex_t ws_rt_lock = PTHREAD_MUTEX_INITIALIZER;

int ws_is_main_thread(void) { return pthread_equal(pthread_self(), ws_rt.main_thread); }
