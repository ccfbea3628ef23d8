/*
 * omp/tasks.c — the task constructs: libomp's entry points for task
 * (tied, untied, if, final, mergeable, priority), taskwait, taskyield and
 * taskgroup (the fast path's begin and end: fast.c).
 *
 * A task is deferred (queued on the worker's task deque, taskq.c) where
 * its team has more than one thread; else, as libomp does in a
 * serialized team, and for included tasks (created in a final task), it
 * runs at once.  An untied task's entry queues the task again at each of
 * its task scheduling points (clang's part_id switch): the runtime calls
 * the entry again at once, on the same thread.  mergeable and priority
 * change nothing.
 */
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>

#include "../idle.h"
#include "blocks.h"
#include "refuse.h"
#include "taskq.h"
#include "taskred.h"
#include "tasks.h"

void *__kmpc_omp_task_alloc(ident_t *loc, int32_t gtid, int32_t flags,
                            size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                            kmp_routine_entry_t task_entry) {
  (void)loc;
  (void)gtid;
  if (flags & KMP_TASK_DETACHABLE)
    ws_omp_refuse("task detach", "__kmpc_omp_task_alloc");
  if (flags & (KMP_TASK_PROXY | KMP_TASK_HIDDEN_HELPER))
    ws_omp_refuse("target nowait", "__kmpc_omp_task_alloc");
  size_t shareds_at = (WS_OMP_TASK_HEADER + sizeof_kmp_task_t + 15) & ~(size_t)15;
  size_t size = shareds_at + sizeof_shareds;
  ws_omp_gtask *g = ws_omp_block_alloc(size);
  if (!g)
    ws_fatal("out of memory allocating an OpenMP task of %zu bytes", size);
  memset(g, 0, WS_OMP_TASK_HEADER + sizeof(kmp_task_t));
  ws_omp_task *parent = ws_omp_cur();
  g->h.parent = parent;
  g->h.kind = WS_OMP_KIND_GENERAL;
  g->h.flags = (uint32_t)flags & 0xffffu;
  /* A task created in a final task is final and included. */
  if (parent->flags & WS_OMP_F_FINAL)
    g->h.flags |= WS_OMP_F_FINAL | WS_OMP_F_INCLUDED;
  g->h.itask = parent->itask;
  g->h.tg = parent->tg;
  g->size = size;
  kmp_task_t *t = ws_omp_kmp_task(g);
  t->shareds = sizeof_shareds ? (char *)g + shareds_at : NULL;
  t->routine = task_entry;
  return t;
}

/* Barrier waiters of the team sleep (barrier.c): one wakes for the task. */
static void wake_one_waiter(ws_omp_team *team) {
  if (atomic_load_explicit(&team->sleepers, ws_relaxed) > 0)
    ws_futex(&team->bar_gen, FUTEX_WAKE_PRIVATE, 1, NULL);
}

void ws_omp_task_submit(ws_omp_gtask *g) {
  ws_omp_team *team = g->h.itask->team;
  if (team->nthreads > 1 && !(g->h.flags & WS_OMP_F_INCLUDED) &&
      !ws_omp_q_push(&g->h)) {
    wake_one_waiter(team);
    return;
  }
  ws_omp_run_task(&g->h);
}

int32_t __kmpc_omp_task(ident_t *loc, int32_t gtid, void *task) {
  (void)loc;
  (void)gtid;
  ws_omp_gtask *g = ws_omp_gtask_of(task);
  if (&g->h == __ws_omp_current_task) {
    /* An untied task's next part: its entry returns, and runs again. */
    g->h.flags |= WS_OMP_F_REQUEUED;
    return 0;
  }
  ws_omp_task_submit(g);
  return 0;
}

/* if(0): the encountering thread runs the entry itself between these. */
void __kmpc_omp_task_begin_if0(ident_t *loc, int32_t gtid, void *task) {
  (void)loc;
  (void)gtid;
  ws_omp_gtask *g = ws_omp_gtask_of(task);
  g->h.flags |= WS_OMP_F_IF0;
  g->h.saved_current = (ws_omp_task *)__ws_omp_current_task;
  g->h.saved_pending = ws_omp_pending;
  __ws_omp_current_task = &g->h;
  ws_omp_pending = 0;
}

void __kmpc_omp_task_complete_if0(ident_t *loc, int32_t gtid, void *task) {
  (void)loc;
  ws_omp_gtask *g = ws_omp_gtask_of(task);
  kmp_task_t *kt = task;
  while (g->h.flags & WS_OMP_F_REQUEUED) { /* an untied if(0) task's parts */
    g->h.flags &= ~WS_OMP_F_REQUEUED;
    kt->routine(gtid, kt);
  }
  if (ws_omp_pending)
    ws_omp_resolve_to(0);
  if (g->h.flags & KMP_TASK_DESTRUCTORS)
    kt->data1.destructors(gtid, kt);
  __ws_omp_current_task = g->h.saved_current;
  ws_omp_pending = g->h.saved_pending;
  ws_omp_block_free(g, g->size);
}

/* The fast path's check: no queued child, one load. */
int32_t __kmpc_omp_taskwait(void *loc, int32_t gtid) {
  return __ws_omp_taskwait(loc, gtid);
}

/* A scheduling point that need not wait: finishes one queued child (a
 * descendant, as a tied task may run); an implicit or untied task may
 * also run another worker's task, once. */
int32_t __kmpc_omp_taskyield(ident_t *loc, int32_t gtid, int32_t end_part) {
  (void)loc;
  (void)gtid;
  (void)end_part;
  ws_omp_task *cur = ws_omp_cur(); /* a lazy task: its own pending count */
  if (ws_omp_pending) {
    ws_omp_resolve_to(ws_omp_pending - 1);
    return 0;
  }
  ws_worker *w = ws_omp_worker_self();
  if (w && cur->itask->team->nthreads > 1 &&
      (cur->kind == WS_OMP_KIND_IMPLICIT || !(cur->flags & KMP_TASK_TIED)))
    ws_omp_help(w);
  return 0;
}

/* affinity(...): a hint. */
int32_t __kmpc_omp_reg_task_with_affinity(ident_t *loc, int32_t gtid, void *task,
                                          int32_t naffins, void *affin_list) {
  (void)loc;
  (void)gtid;
  (void)task;
  (void)naffins;
  (void)affin_list;
  return 0;
}

void __kmpc_taskgroup(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  ws_omp_task *cur = ws_omp_cur();
  ws_omp_tg *tg = malloc(sizeof *tg);
  if (!tg)
    ws_fatal("out of memory opening a taskgroup");
  tg->prev = cur->tg;
  tg->owner = cur;
  tg->pending_at = ws_omp_pending;
  tg->red = NULL;
  cur->tg = tg;
}

void __kmpc_end_taskgroup(ident_t *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  ws_omp_task *cur = ws_omp_cur();
  ws_omp_tg *tg = cur->tg;
  if (!tg || tg->owner != cur)
    ws_fatal("__kmpc_end_taskgroup without a taskgroup of the current task");
  ws_omp_resolve_to(tg->pending_at);
  if (tg->red)
    ws_omp_taskred_finish(tg->red);
  cur->tg = tg->prev;
  free(tg);
}

/* The fast path's begin and end (ws/omp_abi.h): omp/fast.c. */
