/*
 * scale.c — the ws-scale hooks (ws/scale_hooks.def) and regions: work,
 * span and burdened span of the series-parallel DAG, computed online.
 *
 * Each hook reads the clock first and charges the time since the previous
 * hook's last read, less the residual, to the strand that just ended (to
 * the frame on top of this worker's stack); it reads the clock again last,
 * so its own work is not charged.  While a sync waits the clock is stopped:
 * the tasks it runs meanwhile (its own children not stolen, or tasks it
 * leapfrogs to) charge their own frames, and waiting is no work.
 */
#include <stdlib.h>
#include <string.h>

#include "scale.h"
#include "scale_clock.h"
#include "scale_regions.h"
#include "ws/abi.h"
#include "ws/scale.h"

/* libws: binds the calling thread to its deque, starting the workers the
 * first time (startup.c). */
ws_slot *ws_bind_caller(void);

/* The hooks' prototypes, from the list the pass reads too. */
#define WS_SCALE_HOOK(name, ret, ...) ret __ws_scale_##name(__VA_ARGS__);
#include "ws/scale_hooks.def"

typedef struct ws_scale_worker {
  ws_scale_frame *top; /* NULL until this thread's first hook */
  uint64_t t_last;     /* the clock at the end of the last hook */
  uint64_t tt_last;    /* the time clock then (two clocks) */
  int running;         /* is a strand of `top` running */
  ws_scale_frame base;
} ws_scale_worker;

/* The hooks' parameters, set by the start-up (scale_init.c). */
uint64_t ws_scale_residual, ws_scale_tresidual;
uint64_t ws_scale_burden, ws_scale_tburden;

static __thread ws_scale_worker self __attribute__((tls_model("initial-exec")));
static ws_scale_frame *program;

static inline ws_scale_worker *me(void) {
  ws_scale_worker *w = &self;
  if (__builtin_expect(!w->top, 0)) {
    w->base.kind = WS_SCALE_BASE;
    w->top = &w->base;
  }
  return w;
}

static inline uint64_t strand(uint64_t from, uint64_t to, uint64_t residual) {
  uint64_t d = to - from;
  return d > residual ? d - residual : 0;
}

/* Ends the running strand now: the clocks are read first thing. */
static inline void charge(ws_scale_worker *w) {
  uint64_t now = ws_scale_now();
  uint64_t tnow = ws_scale_timed ? ws_scale_tnow() : 0;
  if (!w->running)
    return;
  ws_scale_figures *f = &w->top->f;
  uint64_t d = strand(w->t_last, now, ws_scale_residual);
  f->work += d;
  f->span += d;
  f->bspan += d;
  if (ws_scale_timed) {
    uint64_t dt = strand(w->tt_last, tnow, ws_scale_tresidual);
    f->twork += dt;
    f->tspan += dt;
    f->tbspan += dt;
  }
}

/* The next strand starts: the clocks are read last thing. */
static inline void restart(ws_scale_worker *w) {
  w->running = 1;
  if (ws_scale_timed)
    w->tt_last = ws_scale_tnow();
  w->t_last = ws_scale_now();
}

/* a += b, frames in series. */
static void add_series(ws_scale_figures *a, const ws_scale_figures *b) {
  a->work += b->work;
  a->span += b->span;
  a->bspan += b->bspan;
  a->spawns += b->spawns;
  a->twork += b->twork;
  a->tspan += b->tspan;
  a->tbspan += b->tbspan;
}

/* a := a and b in parallel: the work adds up, the longer span (by the DAG
 * clock) wins and brings its time along; on a tie, a keeps its own. */
static void add_parallel(ws_scale_figures *a, const ws_scale_figures *b) {
  a->work += b->work;
  a->spawns += b->spawns;
  a->twork += b->twork;
  if (b->span > a->span) {
    a->span = b->span;
    a->tspan = b->tspan;
  }
  if (b->bspan > a->bspan) {
    a->bspan = b->bspan;
    a->tbspan = b->tbspan;
  }
}

static void frame_lock(_Atomic int *l) {
  while (atomic_exchange_explicit(l, 1, memory_order_acquire))
    while (atomic_load_explicit(l, memory_order_relaxed))
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#else
      ;
#endif
}

static void frame_unlock(_Atomic int *l) {
  atomic_store_explicit(l, 0, memory_order_release);
}

static ws_scale_frame *push(ws_scale_worker *w, ws_scale_kind kind) {
  ws_scale_frame *below = w->top, *f = below->above;
  if (!f) {
    f = aligned_alloc(64, sizeof *f);
    if (!f)
      ws_scale_fatal("out of memory");
    memset(f, 0, sizeof *f);
    below->above = f;
  }
  f->below = below;
  f->kind = kind;
  f->outstanding = 0;
  memset(&f->f, 0, sizeof f->f);
  memset(&f->child, 0, sizeof f->child);
  w->top = f;
  return f;
}

/* A function's or region's frame ends: it is part of the strand sequence
 * of the frame below, so its figures add up. */
static void pop_in_series(ws_scale_worker *w) {
  ws_scale_frame *f = w->top, *below = f->below;
  add_series(&below->f, &f->f);
  w->top = below;
}

/* The sync of f: every child has ended (the runtime's join orders their
 * writes before this), the longest path is through one of them or through
 * the continuation. */
static void join_children(ws_scale_frame *f) {
  if (!f->outstanding)
    return;
  frame_lock(&f->lock);
  add_parallel(&f->f, &f->child);
  memset(&f->child, 0, sizeof f->child);
  frame_unlock(&f->lock);
  f->outstanding = 0;
}

static const char *kind_name(const ws_scale_frame *f) {
  switch (f->kind) {
  case WS_SCALE_FUNCTION: return "a function";
  case WS_SCALE_TASK: return "a spawned call";
  case WS_SCALE_REGION: return "a region";
  default: return "the program";
  }
}

/* An exception that left instrumented functions without running their exit
 * (no cleanup in them) left their frames behind: they end here, in series.
 * A region left open is the program's error. */
static void unwind_to(ws_scale_worker *w, ws_scale_frame *f,
                      const char *where) {
  while (w->top != f) {
    ws_scale_frame *t = w->top;
    if (t->kind == WS_SCALE_REGION)
      ws_scale_fatal("region \"%s\" is still open at the end of %s; end it "
                     "(ws_scale_end) in the function invocation that began it",
                     t->name, where);
    if (t->kind != WS_SCALE_FUNCTION || t == &w->base)
      ws_scale_fatal("frames out of order at the end of %s (is every file "
                     "that spawns compiled with -fws-scale?)",
                     where);
    join_children(t);
    pop_in_series(w);
  }
}

void *__ws_scale_enter(void) {
  ws_scale_worker *w = me();
  charge(w);
  ws_scale_frame *f = push(w, WS_SCALE_FUNCTION);
  restart(w);
  return f;
}

void __ws_scale_leave(void *frame) {
  ws_scale_worker *w = me();
  charge(w);
  unwind_to(w, frame, kind_name(frame));
  join_children(w->top);
  pop_in_series(w);
  restart(w);
}

void *__ws_scale_spawn(uint64_t *at) {
  ws_scale_worker *w = me();
  charge(w);
  ws_scale_frame *f = w->top;
  f->outstanding++;
  f->f.spawns++;
  at[0] = f->f.span;
  at[1] = f->f.bspan;
  at[2] = f->f.tspan;
  at[3] = f->f.tbspan;
  /* The runtime's start-up (worker threads, the main thread's deque) comes
   * at the first spawn: here, inside the hook, it is no strand's work. */
  ws_bind_caller();
  restart(w);
  return f;
}

void *__ws_scale_task_begin(void *spawner, uint64_t span, uint64_t bspan,
                            uint64_t tspan, uint64_t tbspan) {
  ws_scale_worker *w = me();
  charge(w);
  int was_running = w->running;
  ws_scale_frame *t = push(w, WS_SCALE_TASK);
  t->spawner = spawner;
  t->resume_running = was_running;
  t->f.span = span;
  t->f.bspan = bspan + ws_scale_burden; /* the steal that may move it */
  if (ws_scale_timed) {
    t->f.tspan = tspan;
    t->f.tbspan = tbspan + ws_scale_tburden;
  }
  restart(w);
  return t;
}

void __ws_scale_task_end(void *task) {
  ws_scale_worker *w = me();
  charge(w);
  unwind_to(w, task, "a spawned call");
  ws_scale_frame *t = task, *s = t->spawner;
  frame_lock(&s->lock);
  add_parallel(&s->child, &t->f);
  frame_unlock(&s->lock);
  w->top = t->below;
  w->running = 0;
  if (t->resume_running)
    restart(w);
}

void __ws_scale_sync_begin(void) {
  ws_scale_worker *w = me();
  charge(w);
  w->running = 0;
}

void __ws_scale_sync_end(void) {
  ws_scale_worker *w = me();
  join_children(w->top);
  restart(w);
}

void ws_scale_begin(const char *name) {
  ws_scale_worker *w = me();
  charge(w);
  if (w->top->outstanding)
    ws_scale_fatal("ws_scale_begin(\"%s\") while %d spawn(s) of the "
                   "enclosing code are outstanding; ws_sync() first, or "
                   "begin the region before them",
                   name, w->top->outstanding);
  ws_scale_frame *r = push(w, WS_SCALE_REGION);
  r->name = name;
  restart(w);
}

void ws_scale_end(const char *name) {
  ws_scale_worker *w = me();
  charge(w);
  ws_scale_frame *r = w->top;
  if (r->kind != WS_SCALE_REGION)
    ws_scale_fatal("ws_scale_end(\"%s\") without a ws_scale_begin in the "
                   "same function invocation",
                   name);
  if (strcmp(r->name, name) != 0)
    ws_scale_fatal("ws_scale_end(\"%s\") inside region \"%s\": regions "
                   "nest, end the inner one first",
                   name, r->name);
  if (r->outstanding)
    ws_scale_fatal("ws_scale_end(\"%s\") with %d spawn(s) of the region "
                   "outstanding; ws_sync() before ws_scale_end",
                   name, r->outstanding);
  ws_scale_region_record(r->name, &r->f);
  pop_in_series(w);
  restart(w);
}

ws_scale_frame *ws_scale_program(void) { return program; }

void ws_scale_start_program(void) {
  ws_scale_worker *w = me();
  program = &w->base;
  memset(&program->f, 0, sizeof program->f);
  restart(w);
}

int ws_scale_finish_program(void) {
  ws_scale_worker *w = me();
  charge(w);
  w->running = 0;
  if (w->top == program || !program)
    return 0;
  int open = 0;
  for (ws_scale_frame *f = w->top; f != &w->base; f = f->below)
    open++;
  /* exit() inside open frames: whatever they did counts, in series. */
  while (w->top != &w->base) {
    if (w->top->kind == WS_SCALE_REGION)
      ws_scale_region_record(w->top->name, &w->top->f);
    join_children(w->top);
    pop_in_series(w);
  }
  return open;
}

static uint64_t median(uint64_t *x, int n) {
  for (int i = 1; i < n; i++) /* insertion sort */
    for (int j = i; j > 0 && x[j] < x[j - 1]; j--) {
      uint64_t t = x[j];
      x[j] = x[j - 1];
      x[j - 1] = t;
    }
  return x[n / 2];
}

uint64_t ws_scale_measure_residual(uint64_t *tresidual) {
  enum { batches = 33, pairs = 64 };
  uint64_t per_strand[batches], tper_strand[batches];
  for (int b = 0; b < batches; b++) {
    ws_scale_start_program();
    for (int i = 0; i < pairs; i++)
      __ws_scale_leave(__ws_scale_enter());
    ws_scale_finish_program();
    /* 2 strands a pair, and the one from the start to the first enter */
    per_strand[b] = program->f.work / (2 * pairs + 1);
    tper_strand[b] = program->f.twork / (2 * pairs + 1);
  }
  ws_scale_start_program();
  *tresidual = median(tper_strand, batches);
  return median(per_strand, batches);
}
