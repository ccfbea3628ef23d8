/*
 * stacks.h — the stacks of the runtime's threads: the workers' (WS_STACK_SIZE,
 * a guard below each) and the main thread's, each with an alternate signal
 * stack, so that an overflow stops the program with a message naming what
 * to raise instead of a crash.
 */
#ifndef WS_STACKS_H
#define WS_STACKS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* Worker threads' stack size (bytes) and guard, into attr. */
void ws_stack_attr(pthread_attr_t *attr, size_t size);

/* On the calling thread, worker `worker` (0: the main thread): notes where
 * its stack ends and gives it an alternate signal stack, on which the
 * fault handler runs when the stack is exhausted. */
void ws_stack_bind(int worker);

/* From the SIGSEGV handler: if `addr` is where the calling thread's stack
 * overflows, stops the program with the message; else returns. */
void ws_stack_check_fault(uintptr_t addr);

#endif
