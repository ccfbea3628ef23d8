/*
 * omp/barrier.h — a team's barrier (barrier.c): every task the team
 * created before it is finished when it returns.
 */
#ifndef WS_OMP_BARRIER_H
#define WS_OMP_BARRIER_H

#include "state.h"

/* The barrier of implicit task it's team.  A thread first finishes its
 * own queued tasks, then arrives; a thread that arrived runs other
 * workers' tasks until the last one arrives.  (A thread arrives once its
 * own tasks are finished, so when all have arrived, every task is.) */
void ws_omp_barrier(ws_omp_itask *it);

/* Waits until *word is no longer `seen`: spins, yields, then sleeps in
 * naps (sleepers counted in *sleepers, NULL: not counted) of at most
 * max_nap_ns; with `help`, a worker runs other workers' tasks meanwhile. */
void ws_omp_wait_change(_Atomic uint32_t *word, uint32_t seen, _Atomic int *sleepers,
                        int help, long max_nap_ns);

#endif
