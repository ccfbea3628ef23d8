/* deque_under_test.c — see deque_under_test.h.  The runtime's deque
 * sources are compiled into this file: the tools do not link libws, whose
 * constructor would start worker threads, and the owner's take must inline
 * into dut_take_run (a call would add a store, its return address, between
 * two takes). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deque_under_test.h"

/* The variants' own code. */
#include "deque_the.c"
#include "deque_cl.c"
#include "deque_ffthe.c"
#include "deque_ffcl.c"
#include "deque_thep.c"

/* What libws's init.c gives the deque code: the shared state whose delta
 * the thieves read, and the fatal exit (deque overflow). */
ws_runtime ws_rt;

void ws_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fflush(stdout);
  fputs("ws: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  _exit(2);
}

typedef struct dut_task {
  ws_task hdr;
} dut_task;

struct dut {
  int v;
  const ws_deque_ops *ops;
  ws_worker *owner, *thief;
  dut_task *tasks;
  uint32_t ntasks;
  /* Where the pad's stores go: n distinct lines, or the eight scratch
   * lines of ws-anticoalesce (ws_tls_scratch's layout). */
  struct line {
    alignas(WS_CACHE_LINE) volatile uint64_t v[WS_CACHE_LINE / 8];
  } *lines, scratch[WS_SCRATCH_LINES];
};

static const struct {
  const char *name;
  const ws_deque_ops *ops;
  unsigned x;
} variants[DUT_VARIANTS] = {
    [DUT_THE] = {"the", &ws_ops_the, 1},       [DUT_CL] = {"cl", &ws_ops_cl, 1},
    [DUT_FFTHE] = {"ffthe", &ws_ops_ffthe, 1}, [DUT_FFCL] = {"ffcl", &ws_ops_ffcl, 1},
    [DUT_THEP] = {"thep", &ws_ops_thep, 2},
};

int dut_variant_by_name(const char *name) {
  for (int v = 0; v < DUT_VARIANTS; v++)
    if (strcmp(variants[v].name, name) == 0)
      return v;
  return -1;
}

const char *dut_variant_name(int v) { return variants[v].name; }
int dut_fence_free(int v) { return variants[v].ops->fence_free; }
unsigned dut_take_stores(int v) { return variants[v].x; }

void dut_set_delta(int64_t delta) { ws_rt.delta = delta; }

static ws_worker *new_worker(const ws_deque_ops *ops, int id, size_t capacity) {
  size_t bytes = (sizeof(ws_worker) + WS_CACHE_LINE - 1) & ~(size_t)(WS_CACHE_LINE - 1);
  ws_worker *w = aligned_alloc(WS_CACHE_LINE, bytes);
  if (!w)
    return NULL;
  memset(w, 0, sizeof *w);
  w->id = id;
  if (ops->init(w, capacity)) {
    free(w);
    return NULL;
  }
  return w;
}

#define MAX_PAD_LINES 4096

dut *dut_new(int v, uint32_t ntasks, char *err, size_t errlen) {
  dut *d = aligned_alloc(WS_CACHE_LINE, (sizeof *d + WS_CACHE_LINE - 1) &
                                            ~(size_t)(WS_CACHE_LINE - 1));
  if (!d) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  memset(d, 0, sizeof *d);
  d->v = v;
  d->ops = variants[v].ops;
  d->ntasks = ntasks;
  size_t capacity = 16;
  while (capacity < 2 * (size_t)ntasks)
    capacity <<= 1;
  d->tasks = calloc(ntasks, sizeof *d->tasks);
  d->lines = aligned_alloc(WS_CACHE_LINE, MAX_PAD_LINES * sizeof *d->lines);
  d->owner = new_worker(d->ops, 0, capacity);
  d->thief = new_worker(d->ops, 1, capacity);
  if (!d->tasks || !d->lines || !d->owner || !d->thief) {
    snprintf(err, errlen, "out of memory for a deque of %zu tasks", capacity);
    dut_free(d);
    return NULL;
  }
  memset((void *)d->lines, 0, MAX_PAD_LINES * sizeof *d->lines);
  ws_rt.ops = d->ops; /* as init.c sets it: nothing here reads it */
  return d;
}

void dut_free(dut *d) {
  if (!d)
    return;
  for (int i = 0; i < 2; i++) {
    ws_worker *w = i ? d->thief : d->owner;
    if (w) {
      d->ops->fini(w);
      free(w);
    }
  }
  free(d->tasks);
  free(d->lines);
  free(d);
}

void dut_reset(dut *d) {
  size_t capacity = (size_t)d->owner->dq.th.mask + 1;
  d->ops->fini(d->owner);
  if (d->ops->init(d->owner, capacity))
    ws_fatal("out of memory for a deque of %zu tasks", capacity);
}

void dut_push(dut *d, uint32_t id) {
  ws_task *t = &d->tasks[id].hdr;
  switch (d->v) {
  case DUT_THE: __ws_push_the(d->owner, t); break;
  case DUT_CL: __ws_push_cl(d->owner, t); break;
  case DUT_FFTHE: __ws_push_ffthe(d->owner, t); break;
  case DUT_FFCL: __ws_push_ffcl(d->owner, t); break;
  case DUT_THEP: __ws_push_thep(d->owner, t); break;
  }
}

/* The pad's stores, all volatile, so the compiler makes exactly these. */
static inline __attribute__((always_inline)) void pad_stores(dut *d, dut_pad pad,
                                                             uint64_t value) {
  if (pad.kind == DUT_PAD_LINES)
    for (unsigned k = 0; k < pad.n; k++)
      d->lines[k].v[0] = value;
  else
    for (unsigned k = 0; k < pad.n; k++)
      d->scratch[k % WS_SCRATCH_LINES].v[0] = k;
}

/* One loop per variant, with that variant's take inlined.  Its only
 * stores are the take's and the pad's: the count and the sum stay in
 * registers, and the conflict path (out of line, behind a fence or a
 * lock) comes after the take's load of H. */
#define DUT_TAKE_RUN(v)                                                        \
  static __attribute__((noinline, flatten)) uint32_t take_run_##v(             \
      dut *d, uint32_t n, dut_pad pad, uint64_t *idsum) {                      \
    ws_worker *w = d->owner;                                                   \
    uint64_t sum = 0;                                                          \
    uint32_t got = 0;                                                          \
    while (got < n) {                                                          \
      ws_task *r = __ws_take_##v(w);                                           \
      if (ws_is_stolen(r))                                                     \
        break;                                                                 \
      sum += (uint64_t)((dut_task *)r - d->tasks);                             \
      got++;                                                                   \
      if (pad.n)                                                               \
        pad_stores(d, pad, got);                                               \
    }                                                                          \
    *idsum = sum;                                                              \
    return got;                                                                \
  }
DUT_TAKE_RUN(the)
DUT_TAKE_RUN(cl)
DUT_TAKE_RUN(ffthe)
DUT_TAKE_RUN(ffcl)
DUT_TAKE_RUN(thep)

uint32_t dut_take_run(dut *d, uint32_t n, dut_pad pad, uint64_t *idsum) {
  if (pad.kind == DUT_PAD_LINES && pad.n > MAX_PAD_LINES)
    pad.n = MAX_PAD_LINES;
  switch (d->v) {
  case DUT_THE: return take_run_the(d, n, pad, idsum);
  case DUT_CL: return take_run_cl(d, n, pad, idsum);
  case DUT_FFTHE: return take_run_ffthe(d, n, pad, idsum);
  case DUT_FFCL: return take_run_ffcl(d, n, pad, idsum);
  default: return take_run_thep(d, n, pad, idsum);
  }
}

int64_t dut_steal(dut *d) {
  ws_task *r = d->ops->steal(d->owner, d->thief);
  if (r == WS_EMPTY)
    return DUT_EMPTY;
  if (r == WS_ABORT)
    return DUT_ABORT;
  return dut_task_id(d, r);
}

ws_thedeque *dut_deque(dut *d) { return &d->owner->dq.th; }

int64_t dut_task_id(const dut *d, const ws_task *t) {
  return (const dut_task *)t - d->tasks;
}
