/*
 * omp/taskred.h — task reductions (taskred.c): a taskgroup's reduction
 * items, each with a private copy per worker, combined into the shared
 * item when the taskgroup ends.
 */
#ifndef WS_OMP_TASKRED_H
#define WS_OMP_TASKRED_H

#include "state.h"

typedef struct ws_omp_taskred ws_omp_taskred;

/* The end of the taskgroup that owns them (its tasks are finished):
 * combines every private copy into its shared item and frees them. */
void ws_omp_taskred_finish(ws_omp_taskred *r);

#endif
