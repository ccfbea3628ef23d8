/*
 * scale_dag.c — the ws-scale hooks driven by hand on a clock the test
 * moves: the work, span and burdened span of small DAGs are exact.  A
 * child that runs at its parent's sync, a child that runs on another
 * thread while the parent goes on (a steal), nested regions, and a region
 * whose children end on another thread; with two clocks, the times that
 * follow the path the counts chose.
 *
 *   scale_dag      runs every case; exits 1 naming the first figure that
 *                  differs from the one worked out by hand in the comments
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale.h"
#include "scale_clock.h"
#include "scale_regions.h"
#include "ws/scale.h"

#define WS_SCALE_HOOK(name, ret, ...) ret __ws_scale_##name(__VA_ARGS__);
#include "ws/scale_hooks.def"

enum { B = 100 }; /* the burden */

static _Atomic uint64_t now;
static uint64_t fake_clock(void) { return now; }
static void advance(uint64_t d) { now += d; }

static int failures;
static void expect(const char *what, uint64_t got, uint64_t want) {
  if (got != want) {
    printf("FAIL %s: %llu, expected %llu\n", what, (unsigned long long)got,
           (unsigned long long)want);
    failures++;
  }
}

static void expect_figures(const char *what, const ws_scale_figures *f,
                           uint64_t work, uint64_t span, uint64_t bspan,
                           uint64_t spawns) {
  char name[128];
  snprintf(name, sizeof name, "%s work", what);
  expect(name, f->work, work);
  snprintf(name, sizeof name, "%s span", what);
  expect(name, f->span, span);
  snprintf(name, sizeof name, "%s burdened span", what);
  expect(name, f->bspan, bspan);
  snprintf(name, sizeof name, "%s spawns", what);
  expect(name, f->spawns, spawns);
}

/* One spawn whose child runs at the sync (not stolen):
 *   10 | enter | 5 | spawn | 7 | sync [child 20] | 3 | leave | 2
 * work 10+5+7+20+3+2 = 47; span 10 + max(5+7, 5+20) + 3 + 2 = 40;
 * burdened: the child's path is 5 + B + 20 = 125, so 10 + 125 + 3 + 2. */
static void unstolen(void) {
  ws_scale_start_program();
  advance(10);
  void *f = __ws_scale_enter();
  advance(5);
  uint64_t at[4];
  void *parent = __ws_scale_spawn(at);
  advance(7);
  __ws_scale_sync_begin();
  advance(1000); /* waiting is no work */
  void *t = __ws_scale_task_begin(parent, at[0], at[1], at[2], at[3]);
  advance(20);
  __ws_scale_task_end(t);
  advance(1000);
  __ws_scale_sync_end();
  advance(3);
  __ws_scale_sync_begin();
  __ws_scale_leave(f);
  advance(2);
  ws_scale_finish_program();
  expect_figures("unstolen", &ws_scale_program()->f, 47, 40, 140, 1);
}

struct steal {
  void *parent;
  uint64_t at[4];
  pthread_barrier_t started, ended;
};

/* The thief: the child takes 30 while the parent's continuation takes 8. */
static void *thief(void *arg) {
  struct steal *s = arg;
  pthread_barrier_wait(&s->started);
  void *t = __ws_scale_task_begin(s->parent, s->at[0], s->at[1], s->at[2], s->at[3]);
  void *g = __ws_scale_enter(); /* the child spawns too: a grandchild */
  uint64_t at[4];
  void *p = __ws_scale_spawn(at);
  __ws_scale_sync_begin();
  void *gt = __ws_scale_task_begin(p, at[0], at[1], at[2], at[3]);
  advance(30);
  __ws_scale_task_end(gt);
  __ws_scale_sync_end();
  __ws_scale_sync_begin();
  __ws_scale_leave(g);
  __ws_scale_task_end(t);
  pthread_barrier_wait(&s->ended);
  return NULL;
}

/* A steal:  enter | 4 | spawn | 8 | sync | leave, the child (30, itself a
 * spawn of 30) on another thread.  work 4+8+30 = 42; span 4 + max(8, 30)
 * = 34; burdened 4 + B + B + 30 = 234 (two spawn edges on the path). */
static void stolen(void) {
  ws_scale_start_program();
  void *f = __ws_scale_enter();
  advance(4);
  struct steal s;
  s.parent = __ws_scale_spawn(s.at);
  pthread_barrier_init(&s.started, NULL, 2);
  pthread_barrier_init(&s.ended, NULL, 2);
  pthread_t th;
  pthread_create(&th, NULL, thief, &s);
  advance(8);
  __ws_scale_sync_begin();
  pthread_barrier_wait(&s.started);
  pthread_barrier_wait(&s.ended);
  pthread_join(th, NULL);
  __ws_scale_sync_end();
  __ws_scale_sync_begin();
  __ws_scale_leave(f);
  ws_scale_finish_program();
  expect_figures("stolen", &ws_scale_program()->f, 42, 34, 234, 2);
}

static const ws_scale_region_row *row(const char *name) {
  int n;
  const ws_scale_region_row *r = ws_scale_region_rows(&n);
  for (int i = 0; i < n; i++)
    if (strcmp(r[i].name, name) == 0)
      return &r[i];
  printf("FAIL no region %s\n", name);
  failures++;
  static ws_scale_region_row none;
  return &none;
}

/* Regions:  outer{ 1 | inner{ 2 | spawn [child 9] | 3 | sync | 4 } | 5 },
 * inner twice.  inner: work 18, span 2+9+4 = 15, bspan 2+B+9+4;
 * outer: work 1+2*18+5 = 42, span 1+2*15+5 = 36; counts 2 and 1. */
static void regions(void) {
  ws_scale_start_program();
  void *f = __ws_scale_enter();
  ws_scale_begin("outer");
  advance(1);
  for (int i = 0; i < 2; i++) {
    ws_scale_begin("inner");
    advance(2);
    uint64_t at[4];
    void *p = __ws_scale_spawn(at);
    advance(3);
    __ws_scale_sync_begin();
    void *t = __ws_scale_task_begin(p, at[0], at[1], at[2], at[3]);
    advance(9);
    __ws_scale_task_end(t);
    __ws_scale_sync_end();
    advance(4);
    ws_scale_end("inner");
  }
  advance(5);
  ws_scale_end("outer");
  __ws_scale_sync_begin();
  __ws_scale_leave(f);
  ws_scale_finish_program();
  const ws_scale_region_row *inner = row("inner"), *outer = row("outer");
  expect("inner count", inner->count, 2);
  expect_figures("inner", &inner->f, 36, 30, 2 * (2 + B + 9 + 4), 2);
  expect("outer count", outer->count, 1);
  expect_figures("outer", &outer->f, 42, 36, 1 + 2 * (2 + B + 9 + 4) + 5, 2);
  expect_figures("program", &ws_scale_program()->f, 42, 36,
                 1 + 2 * (2 + B + 9 + 4) + 5, 2);
}

/* Two clocks (-fws-scale): `now` counts instructions, `tnow` is time.
 *   1 | spawn A | 1 | spawn B | 1 | sync [A: 100 instr, 5 t]
 *                                         [B: 10 instr, 1000 t] | 1 | leave
 * (every strand outside the children: 1 instruction, 1 t).  Work 114
 * instructions, 1009 t.  The span follows A, the most instructions:
 * 1 + 100 + 1 = 102, and its time is A's path, 1 + 5 + 1 = 7, although B
 * took far longer: the time of a path, never a max of times.  Burdened:
 * 1 + B + 100 + 1 = 202 instructions, 1 + TB + 5 + 1 t. */
enum { TB = 50 }; /* the time burden */
static _Atomic uint64_t tnow;
static uint64_t fake_time(void) { return tnow; }
static void advance2(uint64_t instructions, uint64_t t) {
  now += instructions;
  tnow += t;
}

static void two_clocks(void) {
  ws_scale_tnow = fake_time;
  ws_scale_timed = 1;
  ws_scale_tresidual = 0;
  ws_scale_tburden = TB;
  ws_scale_start_program();
  void *f = __ws_scale_enter();
  advance2(1, 1);
  uint64_t a[4], b[4];
  void *p = __ws_scale_spawn(a);
  advance2(1, 1);
  __ws_scale_spawn(b);
  advance2(1, 1);
  __ws_scale_sync_begin();
  void *t = __ws_scale_task_begin(p, a[0], a[1], a[2], a[3]);
  advance2(100, 5);
  __ws_scale_task_end(t);
  t = __ws_scale_task_begin(p, b[0], b[1], b[2], b[3]);
  advance2(10, 1000);
  __ws_scale_task_end(t);
  __ws_scale_sync_end();
  advance2(1, 1);
  __ws_scale_sync_begin();
  __ws_scale_leave(f);
  ws_scale_finish_program();
  const ws_scale_figures *g = &ws_scale_program()->f;
  expect_figures("two clocks", g, 114, 102, 1 + B + 100 + 1, 2);
  expect("two clocks time work", g->twork, 1009);
  expect("two clocks time of the span's path", g->tspan, 7);
  expect("two clocks time of the burdened span's path", g->tbspan,
         1 + TB + 5 + 1);
  ws_scale_timed = 0;
}

int main(void) {
  ws_scale_now = fake_clock;
  ws_scale_residual = 0;
  ws_scale_burden = B;
  unstolen();
  stolen();
  regions();
  two_clocks();
  if (failures)
    return 1;
  printf("scale_dag: ok\n");
  return 0;
}
