/* deque_under_test.c — see deque_under_test.h.  The runtime's deque
 * sources are compiled into this file: the tools do not link libws, whose
 * constructor would start worker threads, and the owner's take must inline
 * into take_run_<v> (a call would add a store, its return address, between
 * two takes).  The rest of what the deques need comes from the runtime's
 * own files, linked in (runtime/tools/CMakeLists.txt): tailhead.c (set-up
 * and reset), slots.c (the slot array and its guard page), faults.c and stacks.c (the
 * guard page's message), membarrier.c
 * (FF-MB's barrier), abi.c (ws_my_dq, ws_tls_scratch, ws_tls_self), rt.c
 * (ws_rt: the delta the thieves read) and fatal.c (the fatal exit). */
#define _GNU_SOURCE
#include <pthread.h>
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
#ifdef DUT_FFMB_NO_BARRIER
/* The stress's negative control only (ws-takestress-nobarrier, never
 * installed): FF-MB's thief without its barrier is THE without the
 * owner's fence, and the stress must see tasks run twice. */
#include "membarrier.h"
#define ws_barrier_victim(w) ((void)(w))
#endif
#include "deque_ffmb.c"

struct dut {
  int v;
  const ws_deque_ops *ops;
  ws_dq *q;     /* the owner's ws_my_dq */
  ws_slot *tail; /* the owner's tail, as compiled code holds it */
  ws_worker *owner, *thief;
  uint32_t ntasks;
  /* Where the pad's stores go: n distinct lines (the scratch kind uses
   * the thread's own ws_tls_scratch, as compiled code does). */
  struct line {
    alignas(WS_CACHE_LINE) volatile uint64_t v[WS_CACHE_LINE / 8];
  } *lines;
};

/* take_stores of every row of ws/variants.def, by id. */
static const unsigned take_stores_by_id[WS_VARIANT_COUNT] = {
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail, validated_only, summary)      \
  [id] = take_stores,
#include "ws/variants.def"
#undef WS_VARIANT
};

static const struct {
  const char *name;
  const ws_deque_ops *ops;
} variants[DUT_VARIANTS] = {
    [DUT_THE] = {"the", &ws_ops_the},       [DUT_CL] = {"cl", &ws_ops_cl},
    [DUT_FFTHE] = {"ffthe", &ws_ops_ffthe}, [DUT_FFCL] = {"ffcl", &ws_ops_ffcl},
    [DUT_THEP] = {"thep", &ws_ops_thep},    [DUT_FFMB] = {"ffmb", &ws_ops_ffmb},
};

int dut_variant_by_name(const char *name) {
  for (int v = 0; v < DUT_VARIANTS; v++)
    if (strcmp(variants[v].name, name) == 0)
      return v;
  return -1;
}

const char *dut_variant_name(int v) { return variants[v].name; }
int dut_fence_free(int v) { return variants[v].ops->fence_free; }
int dut_validated_S_only(int v) { return variants[v].ops->validated_only; }
unsigned dut_take_stores(int v) { return take_stores_by_id[variants[v].ops->id]; }

void dut_set_delta(int64_t delta) {
  ws_rt.delta = delta;
  ws_rt.delta_validated = delta;
}

static ws_worker *new_worker(int id) {
  size_t bytes = (sizeof(ws_worker) + WS_CACHE_LINE - 1) & ~(size_t)(WS_CACHE_LINE - 1);
  ws_worker *w = aligned_alloc(WS_CACHE_LINE, bytes);
  if (w) {
    memset(w, 0, sizeof *w);
    w->id = id;
    w->rng = 0x9e3779b97f4a7c15ULL + (uint64_t)id;
  }
  return w;
}

/* The owner's deque, empty at slot 0, set up by the variant's init. */
static int init_deque(dut *d) {
  memset(d->q, 0, sizeof *d->q);
  if (d->ops->init(d->q, d->owner, d->ntasks))
    return -1;
  d->tail = d->q->base;
  return 0;
}

#define MAX_PAD_LINES 4096

dut *dut_new(int v, uint32_t ntasks, char *err, size_t errlen) {
  if (ws_my_dq.base) {
    snprintf(err, errlen, "this thread already drives a deque");
    return NULL;
  }
  dut *d = aligned_alloc(WS_CACHE_LINE, (sizeof *d + WS_CACHE_LINE - 1) &
                                            ~(size_t)(WS_CACHE_LINE - 1));
  if (!d) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  memset(d, 0, sizeof *d);
  d->v = v;
  d->ops = variants[v].ops;
  d->ntasks = ntasks < WS_MIN_DEQUE_SIZE ? WS_MIN_DEQUE_SIZE : ntasks;
  d->q = &ws_my_dq;
  d->lines = aligned_alloc(WS_CACHE_LINE, MAX_PAD_LINES * sizeof *d->lines);
  d->owner = new_worker(0);
  d->thief = new_worker(1);
  if (!d->lines || !d->owner || !d->thief) {
    snprintf(err, errlen, "out of memory");
    free(d->lines);
    free(d->owner);
    free(d->thief);
    free(d);
    return NULL;
  }
  memset((void *)d->lines, 0, MAX_PAD_LINES * sizeof *d->lines);
  /* As configure.c and the worker's thread set them: FF-MB's barrier signals
   * the owner's thread (when membarrier is missing), whose handler answers
   * through ws_tls_self. */
  d->owner->dq = d->q;
  d->owner->thread = pthread_self();
  ws_tls_self = d->owner;
  ws_rt.ops = d->ops;
  if (init_deque(d)) {
    snprintf(err, errlen, "cannot map a deque of %u slots", d->ntasks);
    ws_tls_self = NULL;
    free(d->lines);
    free(d->owner);
    free(d->thief);
    free(d);
    return NULL;
  }
  return d;
}

void dut_free(dut *d) {
  if (!d)
    return;
  ws_slots_free(d->q);
  memset(d->q, 0, sizeof *d->q);
  ws_tls_self = NULL;
  free(d->owner);
  free(d->thief);
  free((void *)d->lines);
  free(d);
}

void dut_settle(dut *d) {
  d->ops->reset(d->q, d->q->base);
  d->tail = d->q->base;
}

void dut_reset(dut *d) {
  ws_slots_free(d->q);
  if (init_deque(d))
    ws_fatal("cannot map a deque of %u slots", d->ntasks);
}

/* The task's inputs: its id, where a thunk's argument would be. */
static inline uint32_t task_id(const ws_slot *s) {
  uint32_t id;
  memcpy(&id, s->payload, sizeof id);
  return id;
}

/* What compiled code does for a spawn: write the task into the slot at its
 * tail, publish it, and go on with the next slot as its tail. */
void dut_push(dut *d, uint32_t id) {
  ws_slot *s = d->tail;
  s->run = NULL;
  memcpy(s->payload, &id, sizeof id);
  switch (d->v) {
  case DUT_THE: __ws_push_the(s); break;
  case DUT_CL: __ws_push_cl(s); break;
  case DUT_FFTHE: __ws_push_ffthe(s); break;
  case DUT_FFCL: __ws_push_ffcl(s); break;
  case DUT_THEP: __ws_push_thep(s); break;
  case DUT_FFMB: __ws_push_ffmb(s); break;
  }
  d->tail = s + 1;
}

/* The pad's stores, all volatile, so the compiler makes exactly these. */
static inline __attribute__((always_inline)) void pad_stores(dut *d, dut_pad pad,
                                                             uint64_t value) {
  if (pad.kind == DUT_PAD_LINES)
    for (unsigned k = 0; k < pad.n; k++)
      d->lines[k].v[0] = value;
  else /* as ws-anticoalesce inserts them (AntiCoalesce.cpp) */
    for (unsigned k = 0; k < pad.n; k++)
      ws_tls_scratch[((k + 1) % WS_SCRATCH_LINES) * 8] = k;
}

/* One loop per variant, with that variant's take inlined: the sync of
 * compiled code, `if (!__ws_take_V(slot)) run it; else join`, with the
 * task's body left out.  Its only stores are the take's and the pad's:
 * the count and the sum stay in registers, and the conflict path (out of
 * line, behind a fence or a lock) comes after the take's load of H. */
#define DUT_TAKE_RUN(v)                                                        \
  static __attribute__((noinline, flatten)) uint32_t take_run_##v(             \
      dut *d, uint32_t n, dut_pad pad, uint64_t *idsum) {                      \
    ws_slot *t = d->tail;                                                      \
    uint64_t sum = 0;                                                          \
    uint32_t got = 0;                                                          \
    while (got < n) {                                                          \
      t--;                                                                     \
      if (__ws_take_##v(t))                                                    \
        break; /* stolen: the owner would join it; the round is over */        \
      sum += task_id(t);                                                       \
      got++;                                                                   \
      if (pad.n)                                                               \
        pad_stores(d, pad, got);                                               \
    }                                                                          \
    d->tail = d->tail - got;                                                   \
    *idsum = sum;                                                              \
    return got;                                                                \
  }
DUT_TAKE_RUN(the)
DUT_TAKE_RUN(cl)
DUT_TAKE_RUN(ffthe)
DUT_TAKE_RUN(ffcl)
DUT_TAKE_RUN(thep)
DUT_TAKE_RUN(ffmb)

uint32_t dut_take_run(dut *d, uint32_t n, dut_pad pad, uint64_t *idsum) {
  if (pad.kind == DUT_PAD_LINES && pad.n > MAX_PAD_LINES)
    pad.n = MAX_PAD_LINES;
  uint32_t queued = (uint32_t)(d->tail - d->q->base);
  if (n > queued)
    n = queued;
  switch (d->v) {
  case DUT_THE: return take_run_the(d, n, pad, idsum);
  case DUT_CL: return take_run_cl(d, n, pad, idsum);
  case DUT_FFTHE: return take_run_ffthe(d, n, pad, idsum);
  case DUT_FFCL: return take_run_ffcl(d, n, pad, idsum);
  case DUT_THEP: return take_run_thep(d, n, pad, idsum);
  default: return take_run_ffmb(d, n, pad, idsum);
  }
}

int64_t dut_steal(dut *d) {
  ws_slot *r = d->ops->steal(d->q, d->thief);
  if (r == WS_EMPTY)
    return DUT_EMPTY;
  if (r == WS_ABORT)
    return DUT_ABORT;
  return task_id(r);
}

void dut_barrier_counts(const dut *d, uint64_t *barriers, uint64_t *lost) {
  *barriers = d->thief->c.barriers;
  *lost = d->thief->c.barriers - d->thief->c.safe_barrier;
}

ws_dq *dut_deque(dut *d) { return d->q; }
ws_slot *dut_tail(const dut *d) { return d->tail; }
int64_t dut_task_id(const dut *d, const ws_slot *s) {
  (void)d;
  return task_id(s);
}
int64_t dut_slot_index(const dut *d, const ws_slot *s) { return s - d->q->base; }
