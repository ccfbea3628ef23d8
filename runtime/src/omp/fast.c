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

void __ws_omp_task_begin(void *ctx) {
  ws_omp_task *c = ctx;
  ws_omp_task *p = c->parent;
  c->saved_current = (ws_omp_task *)__ws_omp_current_task;
  c->saved_pending = ws_omp_pending;
  c->kind = WS_OMP_KIND_FAST;
  c->flags &= KMP_TASK_TIED | KMP_TASK_FINAL;
  if (ws_likely(p != NULL)) {
    c->itask = ws_omp_bind(p->itask);
    c->tg = p->tg;
    if (p->flags & WS_OMP_F_FINAL)
      c->flags |= WS_OMP_F_FINAL | WS_OMP_F_INCLUDED;
  } else {
    /* The creator was in its initial task, untouched: so is this one. */
    c->itask = ws_omp_initial_itask();
    c->tg = NULL;
  }
  __ws_omp_current_task = c;
  ws_omp_pending = 0;
}

void __ws_omp_task_end(void *ctx) {
  ws_omp_task *c = ctx;
  if (ws_unlikely(ws_omp_pending))
    ws_omp_resolve_to(0);
  __ws_omp_current_task = c->saved_current;
  ws_omp_pending = c->saved_pending;
}

/* No queued child of the current task: nothing to wait for here (the
 * fast-path children were synced before the call). */
int32_t __ws_omp_taskwait(void *loc, int32_t gtid) {
  (void)loc;
  (void)gtid;
  if (ws_unlikely(ws_omp_pending))
    ws_omp_resolve_to(0);
  return 0;
}

int32_t __ws_omp_global_thread_num(void *loc) {
  (void)loc;
  return ws_omp_gtid();
}
