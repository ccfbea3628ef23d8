/* The runtime's side of the fast path's contract (ws/omp_abi.h), lowered
 * by hand as ws-lower lowers a task (as cheetah's handcomp tests do): a
 * creating frame with one context block per task, spawns of bodies that
 * call __ws_omp_task_begin/end, and inside them tasks of the general path
 * (a function that does not wait for them, so the compiler leaves them to
 * the runtime).  Checks that a body's taskwait waits for its general-path
 * children on whichever worker ran the body, that __ws_omp_task_end
 * finishes those it did not wait for, that the current task comes back
 * after the body, final propagates, nested locks belong to the body's
 * task, and gtids are the workers' ids. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "ws/omp_abi.h"
#include "ws/ws.h"

#define BODIES 64
#define KIDS 40

typedef struct args {
  ws_omp_task_ctx ctx; /* in the creating frame, beside the task's data */
  long cells[KIDS];
  int wait; /* the body waits for its children itself */
  int in_final;
  int gtid_ok;
  int lock_ok;
  int worker;
} args;

static long spin(long n) {
  volatile long x = 0;
  for (long i = 0; i < n; i++)
    x += i;
  return x;
}

/* General-path tasks: nobody waits for them here. */
static void children(long *cells) {
  for (int i = 0; i < KIDS; i++) {
#pragma omp task firstprivate(i) shared(cells)
    {
      spin(2000);
#pragma omp atomic
      cells[i] += i + 1;
    }
  }
}

static omp_nest_lock_t nest;

static long body(args *a) {
  void *before = __ws_omp_current_task;
  __ws_omp_task_begin(&a->ctx);
  a->worker = ws_worker_id();
  a->gtid_ok = ws_worker_id() < 0 || __kmpc_global_thread_num(NULL) == ws_worker_id();
  a->in_final = omp_in_final();
  children(a->cells);
  long s = 0;
  if (a->wait) {
    __kmpc_omp_taskwait(NULL, __kmpc_global_thread_num(NULL));
    for (int i = 0; i < KIDS; i++)
      s += a->cells[i];
    /* A second wait with nothing outstanding: the cheap path. */
    __kmpc_omp_taskwait(NULL, __kmpc_global_thread_num(NULL));
  }
  /* nested locks are the task's: this body owns it twice, others wait */
  omp_set_nest_lock(&nest);
  a->lock_ok = omp_test_nest_lock(&nest) == 2;
  omp_unset_nest_lock(&nest);
  omp_unset_nest_lock(&nest);
  __ws_omp_task_end(&a->ctx);
  if (__ws_omp_current_task != before)
    a->lock_ok = 0;
  return s;
}

/* The creating frame: context blocks and data in the frame, one spawn per
 * task, a ws_sync and the runtime's taskwait at the taskwait. */
static int creator(int wait, uint32_t flags, int *stolen) {
  args *a = calloc(BODIES, sizeof *a);
  long r[BODIES];
  int mine = ws_worker_id(), bad = 0;
  for (int b = 0; b < BODIES; b++) {
    a[b].wait = wait;
    __ws_omp_task_ctx_init(&a[b].ctx, flags);
    ws_spawn(r[b], body, &a[b]);
  }
  ws_sync();
  __kmpc_omp_taskwait(NULL, __kmpc_global_thread_num(NULL));
  for (int b = 0; b < BODIES; b++) {
    long s = 0;
    for (int i = 0; i < KIDS; i++)
      s += a[b].cells[i];
    long expect = (long)KIDS * (KIDS + 1) / 2;
    bad += s != expect;                  /* every child ran once, by the end */
    bad += wait && r[b] != expect;       /* ... by the body's taskwait */
    bad += a[b].in_final != !!(flags & 2);
    bad += !a[b].gtid_ok + !a[b].lock_ok;
    *stolen += a[b].worker != mine;
  }
  free(a);
  return bad;
}

int main(void) {
  int bad = 0, stolen = 0, final_seen = -1;
  omp_init_nest_lock(&nest);
  void *initial = __ws_omp_current_task;
#pragma omp parallel
#pragma omp single
  {
    for (int round = 0; round < 10; round++) {
      bad += creator(1, 1, &stolen); /* tied, the body waits */
      bad += creator(0, 0, &stolen); /* untied, __ws_omp_task_end finishes */
      bad += creator(1, 3, &stolen); /* final: children are included */
    }
    /* in a final task, a fast path must not spawn: the test says so */
#pragma omp task final(1) shared(final_seen)
    final_seen = __ws_omp_in_final();
#pragma omp taskwait
  }
  omp_destroy_nest_lock(&nest);
  printf("contract: %d wrong, final seen %d, current task restored %d\n", bad, final_seen,
         __ws_omp_current_task == initial || initial == NULL);
  fprintf(stderr, "contract: %d of %d bodies ran on another worker than their creator\n",
          stolen, 30 * BODIES);
  return bad || final_seen != 1;
}
