/*
 * idle.h — idle workers: how they sleep and how work wakes them (idle.c).
 * Below the scheduler, the submissions and the shutdown, which all use it.
 */
#ifndef WS_IDLE_H
#define WS_IDLE_H

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "worker.h"

/* futex(2) on a private word: FUTEX_WAIT_PRIVATE or FUTEX_WAKE_PRIVATE. */
long ws_futex(_Atomic uint32_t *addr, int op, uint32_t val,
              const struct timespec *timeout);

/* Work appeared: wakes one sleeping worker, if there is one. */
void ws_wake_one(void);
/* The runtime stops, or the count shrank: wakes them all, parked ones
 * included. */
void ws_wake_all(void);
/* The count changed, or the main thread left: wakes the parked workers
 * (they look at the count again). */
void ws_unpark_all(void);
/* A parked worker waits while ws_rt.park_seq is still seq, at most
 * timeout (NULL: no limit). */
void ws_park_wait(uint32_t seq, const struct timespec *timeout);
/* Worker w found nothing: sleeps up to ns, or until woken, or until a call
 * is submitted (submit.c counts it before it wakes; the sleeper counts
 * itself before it looks: one of the two sees the other).  With
 * ask_entry, it also asks the other workers' next entry point into
 * spawning code to wake it.  1 if something woke it. */
int ws_sleep_a_while(ws_worker *w, long ns, int ask_entry);
/* An entry point found a sleeper's request: clears it, wakes one. */
void ws_entry_wake(void);

#endif
