/*
 * omp/fast.c — what compiled code calls around and between the tasks
 * ws-lower spawns itself (ws/omp_abi.h, the fast path): the task's begin
 * and end, the taskwait's check and the thread's gtid.  Also compiled into
 * ws-abi.bc, so that the pass inlines them where it lowered tasks: each is
 * a few loads and stores, which a call would double (issue 35: fib with one
 * task per call).  Their slow paths are out of line, and listed in
 * ws/abi.def with the thread-local state they address.
 *
 * __ws_omp_taskwait and __ws_omp_global_thread_num are
 * __kmpc_omp_taskwait's and __kmpc_global_thread_num's fast versions
 * under names of wsff's own: the pass gives them only to functions it
 * lowered, which are linked with libws, never to code for libomp.
 */
#include "state.h"
#include "taskq.h"

/* The creator's side: the context names its parent, and copies what the
 * task inherits from it at its creation (final: from a final task) (an itask of the team, unbound
 * yet, and the innermost taskgroup): a lazy task's own record, which its
 * children copy in turn, never changes while it is lazy, so a thief that
 * runs a child never reads a record another thread may be completing. */
void __ws_omp_task_ctx_init(void *ctx, uint32_t flags) {
  ws_omp_task *c = ctx;
  ws_omp_task *p = (ws_omp_task *)__ws_omp_current_task;
  c->parent = p;
  c->flags = flags & (KMP_TASK_TIED | KMP_TASK_FINAL);
  if (ws_likely(p != NULL)) {
    /* Created in a final or included task: included (and final), which
     * the creating code reads back to call the task instead of spawning
     * it. */
    c->flags |= p->flags & WS_OMP_F_FINAL;
    c->itask = p->itask;
    c->tg = p->tg;
  } else {
    c->itask = NULL; /* the creator was in its thread's initial task */
    c->tg = NULL;
  }
}

/* The task becomes the thread's current task, lazy: nothing else is done
 * until the runtime is asked something while it is current
 * (ws_omp_cur(), ws_omp_complete_lazy).  Until then the thread's count of
 * queued children (ws_omp_pending) is still the previous task's: a lazy
 * task has none of its own, and leaves the count as it found it. */
void __ws_omp_task_begin(void *ctx) {
  ws_omp_task *c = ctx;
  c->saved_current = (ws_omp_task *)__ws_omp_current_task;
  c->kind = WS_OMP_KIND_LAZY;
  __ws_omp_current_task = c;
}

void __ws_omp_task_end(void *ctx) {
  ws_omp_task *c = ctx;
  if (ws_unlikely(c->kind != WS_OMP_KIND_LAZY)) {
    if (ws_omp_pending)
      ws_omp_resolve_to(0);
    ws_omp_pending = c->saved_pending;
  }
  __ws_omp_current_task = c->saved_current;
}

/* A context-free task (ws/omp_abi.h, rule 6) runs in the task current
 * where it runs, which cannot tell: nothing in its code asks the runtime
 * about its task, and it queues no child.  Only where that task has
 * queued children does it take a context of its own (a lazy task), so
 * that a taskwait in its code does not wait for them. */
int32_t __ws_omp_free_task_begin(void *ctx) {
  if (ws_likely(!ws_omp_pending))
    return 0;
  __ws_omp_task_ctx_init(ctx, KMP_TASK_TIED);
  __ws_omp_task_begin(ctx);
  return 1;
}

void __ws_omp_free_task_end(void *ctx, int32_t own) {
  if (ws_unlikely(own))
    __ws_omp_task_end(ctx);
}

/* No queued child of the current task: nothing to wait for here (the
 * fast-path children were synced before the call).  A lazy task has no
 * queued child: the count is its creator's. */
int32_t __ws_omp_taskwait(void *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  if (ws_likely(!ws_omp_pending))
    return 0;
  ws_omp_task *t = (ws_omp_task *)__ws_omp_current_task;
  if (t && t->kind == WS_OMP_KIND_LAZY)
    return 0;
  ws_omp_resolve_to(0);
  return 0;
}

int32_t __ws_omp_global_thread_num(void *loc) {
  (void)loc;
  return ws_omp_gtid();
}
