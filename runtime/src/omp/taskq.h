/*
 * omp/taskq.h — general-path tasks on the workers (taskq.c).
 *
 * Each worker has a task deque of its own beside its spawn deque: a
 * second deque of the configured variant (the same ops table, so every
 * variant carries OpenMP's tasks too), created at its first task.  A
 * deferred task goes into a slot at the deque's tail; the thread that
 * queued it finishes its tasks LIFO, at a taskwait, a barrier, the end
 * of a taskgroup or the end of the task it was running: it takes its top
 * slot back and runs the task, or, where a thief stole it, waits for the
 * thief (stealing from it meanwhile).  So a task runs exactly once, where
 * the deque's owner took it or a thief stole it, and a slot stays its
 * owner's until then, as a spawn's does; and a task that finished has
 * finished every task it queued (they run, at the latest, at its end).
 */
#ifndef WS_OMP_TASKQ_H
#define WS_OMP_TASKQ_H

#include "state.h"

/* Queues task `t` (its record) as a child of the current task: 0.  1 when
 * it must run now instead: the calling thread is not a worker, or its
 * deque is nearly full. */
int ws_omp_q_push(ws_omp_task *t);

/* Finishes the current task's queued children until `level` remain
 * (taskwait: 0; a taskgroup: those created before it); lowers the
 * current task's open taskgroups' marks to `level`. */
void ws_omp_resolve_to(long level);

/* Runs a general-path task on the calling thread: it becomes the current
 * task; an untied task whose entry queued it again runs again (its next
 * part); its queued children finish; its destructors run; it is freed. */
void ws_omp_run_task(ws_omp_task *t);

/* One attempt to run a task of another worker (a random one: its task
 * deque, then its spawn deque), for a thread that waits (a barrier, an
 * implicit task's taskyield).  1 if it ran one. */
int ws_omp_help(ws_worker *self);

/* While waiting: answers thieves' requests (private deques). */
void ws_omp_idle(ws_worker *self);

#endif
