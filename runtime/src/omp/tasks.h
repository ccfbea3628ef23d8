/*
 * omp/tasks.h — the task constructs (tasks.c), for taskloop: queue a task
 * the way __kmpc_omp_task does.
 */
#ifndef WS_OMP_TASKS_H
#define WS_OMP_TASKS_H

#include "state.h"

/* Defers general-path task g (queues it), or runs it at once where its
 * team is serialized, it is included, or it cannot be queued. */
void ws_omp_task_submit(ws_omp_gtask *g);

void __kmpc_taskgroup(ident_t *loc, int32_t gtid);
void __kmpc_end_taskgroup(ident_t *loc, int32_t gtid);

#endif
