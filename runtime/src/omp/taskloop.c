/*
 * omp/taskloop.c — taskloop: the compiler hands over a pattern task whose
 * private copies hold the loop's bounds; the runtime splits the iterations
 * (grainsize, num_tasks, or its own count: ten tasks per thread, as
 * libomp), makes one task per part (a copy of the pattern, with its
 * bounds, and the compiler's task_dup for firstprivate and lastprivate),
 * queues them as __kmpc_omp_task does, and without nogroup waits for them
 * in a taskgroup of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "tasks.h"
#include "taskq.h"

typedef void (*ws_omp_task_dup)(void *dst, void *src, int32_t lastpriv);

static void taskloop(int32_t gtid, void *task, int32_t if_val, uint64_t *lb,
                     uint64_t *ub, int64_t st, int32_t nogroup, int32_t sched,
                     uint64_t grainsize, int32_t strict, ws_omp_task_dup dup) {
  ws_omp_gtask *g = ws_omp_gtask_of(task);
  kmp_task_t *kt = task;
  size_t lb_at = (size_t)((char *)lb - (char *)g);
  size_t ub_at = (size_t)((char *)ub - (char *)g);
  uint64_t lower = *lb, upper = *ub, tc;
  if (st == 0)
    ws_fatal("taskloop with a zero step");
  if (st > 0)
    tc = (int64_t)(upper - lower) < 0 ? 0 : (upper - lower) / (uint64_t)st + 1;
  else
    tc = (int64_t)(lower - upper) < 0 ? 0 : (lower - upper) / (uint64_t)-st + 1;
  if (!nogroup)
    __kmpc_taskgroup(NULL, gtid);
  uint64_t num = 0, gr = 0, extras = 0;
  if (tc) {
    switch (sched) {
    case 1: /* grainsize */
      if (grainsize == 0)
        grainsize = 1;
      if (grainsize >= tc) {
        num = 1;
        gr = tc;
      } else if (strict) {
        num = (tc + grainsize - 1) / grainsize;
        gr = grainsize;
      } else {
        num = tc / grainsize;
        gr = tc / num;
        extras = tc % num;
      }
      break;
    default: /* none: ten tasks per thread */
      grainsize = (uint64_t)ws_omp_cur()->itask->team->nthreads * 10;
      /* fall through */
    case 2: /* num_tasks */
      num = grainsize ? grainsize : 1;
      if (num > tc)
        num = tc;
      gr = tc / num;
      extras = tc % num;
      break;
    }
  }
  uint64_t done = 0;
  for (uint64_t i = 0; i < num; i++) {
    uint64_t n = gr + (i < extras ? 1 : 0);
    if (n > tc - done)
      n = tc - done; /* strict: the last part is what is left */
    ws_omp_gtask *c = ws_omp_block_alloc(g->size);
    if (!c)
      ws_fatal("out of memory allocating a taskloop task");
    memcpy(c, g, g->size);
    kmp_task_t *ct = ws_omp_kmp_task(c);
    if (kt->shareds)
      ct->shareds = (char *)c + ((char *)kt->shareds - (char *)g);
    uint64_t from = lower + done * (uint64_t)st;
    *(uint64_t *)((char *)c + lb_at) = from;
    *(uint64_t *)((char *)c + ub_at) = from + (n - 1) * (uint64_t)st;
    if (dup)
      dup(ct, kt, i == num - 1);
    done += n;
    if (if_val)
      ws_omp_task_submit(c);
    else
      ws_omp_run_task(&c->h);
  }
  /* The pattern never runs; its firstprivates go. */
  if (g->h.flags & KMP_TASK_DESTRUCTORS)
    kt->data1.destructors(gtid, kt);
  ws_omp_block_free(g, g->size);
  if (!nogroup)
    __kmpc_end_taskgroup(NULL, gtid);
}

void __kmpc_taskloop(ident_t *loc, int32_t gtid, void *task, int32_t if_val,
                     uint64_t *lb, uint64_t *ub, int64_t st, int32_t nogroup,
                     int32_t sched, uint64_t grainsize, void *task_dup) {
  (void)loc;
  taskloop(gtid, task, if_val, lb, ub, st, nogroup, sched, grainsize, 0,
           (ws_omp_task_dup)task_dup);
}

/* With the strict modifier of grainsize and num_tasks (OpenMP 5.1). */
void __kmpc_taskloop_5(ident_t *loc, int32_t gtid, void *task, int32_t if_val,
                       uint64_t *lb, uint64_t *ub, int64_t st, int32_t nogroup,
                       int32_t sched, uint64_t grainsize, int32_t modifier,
                       void *task_dup) {
  (void)loc;
  taskloop(gtid, task, if_val, lb, ub, st, nogroup, sched, grainsize, modifier,
           (ws_omp_task_dup)task_dup);
}
