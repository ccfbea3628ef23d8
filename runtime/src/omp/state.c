/*
 * omp/state.c — each thread's OpenMP state: its current task (set up as
 * the thread's initial task at first need), its gtid, the implicit task of
 * the region it is a member of, and the team every initial task is in.
 */
#include "icv.h"
#include "state.h"

__thread void *__ws_omp_current_task __attribute__((tls_model("initial-exec")));
__thread long ws_omp_pending __attribute__((tls_model("initial-exec")));
__thread int32_t ws_omp_gtid1 __attribute__((tls_model("initial-exec")));
__thread ws_omp_itask *ws_omp_member __attribute__((tls_model("initial-exec")));
__thread int ws_omp_push_nthreads __attribute__((tls_model("initial-exec")));

/* The thread's initial task. */
static __thread ws_omp_itask initial __attribute__((tls_model("initial-exec")));

ws_omp_team ws_omp_initial_team = {.nthreads = 1, .level = 0, .active_level = 0};

ws_omp_itask *ws_omp_initial_itask(void) {
  ws_omp_itask *it = &initial;
  if (ws_unlikely(!it->team)) {
    ws_omp_init();
    it->task.kind = WS_OMP_KIND_IMPLICIT;
    it->task.flags = KMP_TASK_TIED;
    it->task.itask = it;
    it->tid = 0;
    it->nthreads_var = ws_omp_icvs.nthreads;
    it->sched_var = ws_omp_icvs.sched;
    it->chunk_var = ws_omp_icvs.chunk;
    it->dyn_var = ws_omp_icvs.dynamic;
    it->team = &ws_omp_initial_team;
  }
  return it;
}

/* A lazy fast-path task (fast.c) is asked something, on the thread that
 * runs it: it binds to this thread's implicit task in its team (or the
 * thread's initial task, where its creator was in one, untouched), keeps
 * the taskgroup and the flags its creator gave it, and from now on counts
 * its own queued children. */
void ws_omp_complete_lazy(ws_omp_task *c) {
  c->itask = c->itask ? ws_omp_bind(c->itask) : ws_omp_initial_itask();
  c->saved_pending = ws_omp_pending;
  ws_omp_pending = 0;
  c->kind = WS_OMP_KIND_FAST;
}

ws_omp_task *ws_omp_cur_slow(void) {
  ws_omp_task *t = (ws_omp_task *)__ws_omp_current_task;
  if (t) { /* a lazy fast-path task */
    ws_omp_complete_lazy(t);
    return t;
  }
  ws_omp_itask *it = ws_omp_initial_itask();
  __ws_omp_current_task = &it->task;
  return &it->task;
}

/* Workers' gtids are their ids (the main thread is 0, bound or not);
 * other threads count from WS_MAX_WORKERS. */
int32_t ws_omp_gtid_slow(void) {
  static _Atomic int32_t others = WS_MAX_WORKERS;
  int32_t g;
  ws_worker *w = ws_tls_self;
  ws_runtime_configured(); /* the main thread's identity */
  if (w && w->id >= 0)
    g = w->id;
  else if (ws_is_main_thread())
    g = 0;
  else
    g = atomic_fetch_add_explicit(&others, 1, ws_relaxed);
  ws_omp_gtid1 = g + 1;
  return g;
}

int32_t __kmpc_global_thread_num(void *loc) {
  (void)loc;
  return ws_omp_gtid();
}
