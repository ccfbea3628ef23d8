/*
 * scale_clock.c — what ws-scale reads to measure a strand.  The time-stamp
 * counter is the default on x86: a strand costs two reads of ~14 ns.  It
 * counts while the thread is preempted, so on a loaded or oversubscribed
 * machine a preempted strand looks long; the thread's CPU-time clock does
 * not see preemption but costs a system call (~0.5 us) a read, which the
 * residual can only take off on average.  A program built with
 * -fws-scale or -fws-scale=instructions counts its own IR instructions: no
 * noise at all.  With -fws-scale the counts make the DAG (which path is
 * critical, parallelism) and a time clock times the same strands, so the
 * times along the critical path are a sum, never a max of noise
 * (docs/scale.md, "Two clocks").
 */
#include <string.h>
#include <time.h>

#include "scale_clock.h"
#include "scale_frame.h"

#define WS_SCALE_DATA(name, type, storage) extern WS_SCALE_##storage type __ws_scale_##name;
#define WS_SCALE_tls __thread __attribute__((tls_model("initial-exec")))
#define WS_SCALE_weak __attribute__((weak)) const
#define WS_SCALE_anchor const
#include "ws/scale_hooks.def"

/* The counted modules add to it; hooks read it. */
__thread uint64_t __ws_scale_icount;

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define WS_HAVE_TSC 1
static uint64_t read_tsc(void) { return __rdtsc(); }
#else
#define WS_HAVE_TSC 0
#endif

static uint64_t read_clock(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
static uint64_t read_wall(void) { return read_clock(CLOCK_MONOTONIC); }
static uint64_t read_cpu(void) { return read_clock(CLOCK_THREAD_CPUTIME_ID); }
static uint64_t read_icount(void) { return __ws_scale_icount; }

uint64_t (*ws_scale_now)(void) = read_wall;
uint64_t (*ws_scale_tnow)(void) = read_wall;
int ws_scale_timed;

static const char *const names[WS_SCALE_CLOCK_COUNT] = {"tsc", "wall", "cpu",
                                                        "instructions"};
static ws_scale_clock_id selected = WS_SCALE_CLOCK_WALL;
/* tsc: ticks and wall time at the selection, and the rate measured */
static uint64_t tsc0, wall0;
static double tsc_ns_per_tick = 1.0;
static int dag_is_tsc, time_is_tsc;

int ws_scale_clock_by_name(const char *name) {
  for (int i = 0; i < WS_SCALE_CLOCK_COUNT; i++)
    if (strcmp(name, names[i]) == 0)
      return i == WS_SCALE_CLOCK_TSC && !WS_HAVE_TSC ? -1 : i;
  return -1;
}

const char *ws_scale_clock_name(ws_scale_clock_id id) { return names[id]; }

const char *ws_scale_clock_unit(ws_scale_clock_id id) {
  return id == WS_SCALE_CLOCK_INSTRUCTIONS ? "instructions" : "ns";
}

int ws_scale_clock_counted(void) {
  return &__ws_scale_counted != NULL ? __ws_scale_counted : 0;
}

ws_scale_clock_id ws_scale_clock_default(void) {
  if (ws_scale_clock_counted() == 1)
    return WS_SCALE_CLOCK_INSTRUCTIONS;
  return WS_HAVE_TSC ? WS_SCALE_CLOCK_TSC : WS_SCALE_CLOCK_WALL;
}

#if WS_HAVE_TSC
/* Nanoseconds a tick, against CLOCK_MONOTONIC, over at least `ns`. */
static double tsc_rate(uint64_t ns) {
  uint64_t t1, w1;
  do {
    w1 = read_wall();
    t1 = read_tsc();
  } while (w1 - wall0 < ns);
  return (double)(w1 - wall0) / (double)(t1 - tsc0);
}
#endif

void ws_scale_clock_select(ws_scale_clock_id id) {
  static uint64_t (*const readers[WS_SCALE_CLOCK_COUNT])(void) = {
#if WS_HAVE_TSC
      read_tsc,
#else
      read_wall,
#endif
      read_wall, read_cpu, read_icount};
  int counted = ws_scale_clock_counted();
  selected = counted ? WS_SCALE_CLOCK_INSTRUCTIONS : id;
  ws_scale_now = readers[selected];
  ws_scale_timed = counted && id != WS_SCALE_CLOCK_INSTRUCTIONS;
  ws_scale_tnow = ws_scale_timed ? readers[id] : read_wall;
  dag_is_tsc = WS_HAVE_TSC && selected == WS_SCALE_CLOCK_TSC;
  time_is_tsc = WS_HAVE_TSC && ws_scale_timed && id == WS_SCALE_CLOCK_TSC;
  tsc_ns_per_tick = 1.0;
#if WS_HAVE_TSC
  if (dag_is_tsc || time_is_tsc) {
    wall0 = read_wall();
    tsc0 = read_tsc();
    tsc_ns_per_tick = tsc_rate(2000000);
  }
#endif
}

ws_scale_clock_id ws_scale_clock_dag(void) { return selected; }

void ws_scale_clock_refine(void) {
#if WS_HAVE_TSC
  if ((dag_is_tsc || time_is_tsc) && read_wall() - wall0 > 20000000)
    tsc_ns_per_tick = tsc_rate(0);
#endif
}

double ws_scale_clock_value(uint64_t ticks) {
  return (double)ticks * (dag_is_tsc ? tsc_ns_per_tick : 1.0);
}

uint64_t ws_scale_clock_ticks(uint64_t value) {
  return (uint64_t)((double)value / (dag_is_tsc ? tsc_ns_per_tick : 1.0) + 0.5);
}

double ws_scale_time_value(uint64_t ticks) {
  return (double)ticks * (time_is_tsc ? tsc_ns_per_tick : 1.0);
}

uint64_t ws_scale_time_ticks(uint64_t ns) {
  return (uint64_t)((double)ns / (time_is_tsc ? tsc_ns_per_tick : 1.0) + 0.5);
}
