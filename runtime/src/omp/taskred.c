/*
 * omp/taskred.c — task reductions (taskred.h): __kmpc_taskred_init (a
 * taskgroup's task_reduction, a taskloop's reduction) and
 * __kmpc_task_reduction_get_th_data (a task's in_reduction item).  Each
 * item has a private copy per worker (and one for the thread that is no
 * worker: its tasks all run on it), made at the first use on that worker
 * with the compiler's initializer, and combined into the shared item when
 * the taskgroup ends.
 */
#include <stdlib.h>
#include <string.h>

#include "taskred.h"

#define WS_OMP_RED_SLOTS (WS_MAX_WORKERS + 1)

typedef struct ws_omp_red_item {
  kmp_taskred_input_t in;
  void **copies; /* by worker id + 1; 0: a thread that is no worker */
} ws_omp_red_item;

struct ws_omp_taskred {
  int n;
  ws_omp_red_item items[];
};

static int my_slot(void) {
  ws_worker *w = ws_omp_worker_self();
  return w ? w->id + 1 : 0;
}

void *__kmpc_taskred_init(int32_t gtid, int32_t num, void *data) {
  (void)gtid;
  ws_omp_task *cur = ws_omp_cur();
  ws_omp_tg *tg = cur->tg;
  if (!tg || tg->owner != cur || tg->red)
    ws_fatal("__kmpc_taskred_init outside a taskgroup of the current task");
  ws_omp_taskred *r = malloc(sizeof *r + (size_t)num * sizeof r->items[0]);
  if (!r)
    ws_fatal("out of memory for a task reduction");
  r->n = num;
  const kmp_taskred_input_t *in = data;
  for (int i = 0; i < num; i++) {
    r->items[i].in = in[i];
    r->items[i].copies = calloc(WS_OMP_RED_SLOTS, sizeof(void *));
    if (!r->items[i].copies)
      ws_fatal("out of memory for a task reduction");
  }
  tg->red = r;
  return tg;
}

static void *private_copy(ws_omp_red_item *it) {
  int s = my_slot();
  void *p = __atomic_load_n(&it->copies[s], __ATOMIC_ACQUIRE);
  if (p)
    return p;
  size_t size = (it->in.reduce_size + WS_CACHE_LINE - 1) & ~(size_t)(WS_CACHE_LINE - 1);
  p = aligned_alloc(WS_CACHE_LINE, size ? size : WS_CACHE_LINE);
  if (!p)
    ws_fatal("out of memory for a task reduction's private copy");
  if (it->in.reduce_init)
    ((void (*)(void *, void *))it->in.reduce_init)(p, it->in.reduce_orig);
  else
    memset(p, 0, it->in.reduce_size);
  /* Only this worker makes its copy; others may look for it (below). */
  __atomic_store_n(&it->copies[s], p, __ATOMIC_RELEASE);
  return p;
}

/* The calling thread's copy of item d of taskgroup tg's reductions or an
 * enclosing taskgroup's (tg NULL: the current task's).  d is the item's
 * shared or original address, or the address of a private copy: that of
 * the worker that ran the task which created the calling one (clang
 * passes an in_reduction task's own copy to its children); the calling
 * thread's copy all the same. */
void *__kmpc_task_reduction_get_th_data(int32_t gtid, void *tg_, void *d) {
  (void)gtid;
  ws_omp_tg *tg = tg_ ? tg_ : ws_omp_cur()->tg;
  for (ws_omp_tg *g = tg; g; g = g->prev) {
    ws_omp_taskred *r = g->red;
    if (!r)
      continue;
    for (int i = 0; i < r->n; i++)
      if (d == r->items[i].in.reduce_shar || d == r->items[i].in.reduce_orig)
        return private_copy(&r->items[i]);
  }
  for (ws_omp_tg *g = tg; g; g = g->prev) {
    ws_omp_taskred *r = g->red;
    if (!r)
      continue;
    for (int i = 0; i < r->n; i++)
      for (int s = 0; s < WS_OMP_RED_SLOTS; s++) {
        char *p = __atomic_load_n(&r->items[i].copies[s], __ATOMIC_ACQUIRE);
        if (p && (char *)d >= p && (char *)d < p + r->items[i].in.reduce_size)
          return private_copy(&r->items[i]);
      }
  }
  ws_fatal("a task's in_reduction item is not a reduction item of an "
           "enclosing taskgroup");
}

void ws_omp_taskred_finish(ws_omp_taskred *r) {
  for (int i = 0; i < r->n; i++) {
    ws_omp_red_item *it = &r->items[i];
    for (int s = 0; s < WS_OMP_RED_SLOTS; s++) {
      void *p = it->copies[s];
      if (!p)
        continue;
      ((void (*)(void *, void *))it->in.reduce_comb)(it->in.reduce_shar, p);
      if (it->in.reduce_fini)
        ((void (*)(void *))it->in.reduce_fini)(p);
      free(p);
    }
    free(it->copies);
  }
  free(r);
}
