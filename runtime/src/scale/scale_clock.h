/*
 * scale_clock.h — the clocks ws-scale measures strands with
 * (WS_SCALE_CLOCK), and their units.
 */
#ifndef WS_SCALE_CLOCK_H
#define WS_SCALE_CLOCK_H

#include <stdint.h>

typedef enum ws_scale_clock_id {
  WS_SCALE_CLOCK_TSC,  /* the time-stamp counter (x86 only): cheapest */
  WS_SCALE_CLOCK_WALL, /* CLOCK_MONOTONIC */
  WS_SCALE_CLOCK_CPU,  /* CLOCK_THREAD_CPUTIME_ID: blind to preemption */
  WS_SCALE_CLOCK_INSTRUCTIONS, /* IR instructions executed, counted by the
                                  code (-fws-scale=instructions) */
  WS_SCALE_CLOCK_COUNT
} ws_scale_clock_id;

/* "tsc", "wall", "cpu", "instructions"; -1 for any other name, or tsc
 * where there is none. */
int ws_scale_clock_by_name(const char *name);
const char *ws_scale_clock_name(ws_scale_clock_id id);
/* "ns", or "instructions". */
const char *ws_scale_clock_unit(ws_scale_clock_id id);
/* How the program was built: 0 -fws-scale=time (no counts), 1
 * -fws-scale=instructions, 2 -fws-scale (counts, and a time clock beside
 * them).  The mark is a weak definition in every counted module. */
int ws_scale_clock_counted(void);
/* instructions for -fws-scale=instructions, else tsc on x86, else wall. */
ws_scale_clock_id ws_scale_clock_default(void);

/* The clock of the DAG, and with -fws-scale the time clock beside it
 * (ws_scale_timed), set by ws_scale_clock_select. */
extern uint64_t (*ws_scale_now)(void);
extern uint64_t (*ws_scale_tnow)(void);
extern int ws_scale_timed;
/* Sets the clocks.  A program without counts measures everything with
 * `id`.  A counted one measures the DAG in instructions (ws_scale_now) and,
 * unless `id` is instructions, times its strands with `id` too
 * (ws_scale_tnow, ws_scale_timed).  For tsc, measures its rate for a few
 * milliseconds. */
void ws_scale_clock_select(ws_scale_clock_id id);
/* The clock of the DAG: instructions in a counted program, else `id`. */
ws_scale_clock_id ws_scale_clock_dag(void);
/* tsc: measures the rate again over the whole time since the selection
 * (more precise the longer the program ran). */
void ws_scale_clock_refine(void);
/* DAG `ticks` in the DAG clock's unit. */
double ws_scale_clock_value(uint64_t ticks);
/* Ticks of the DAG clock in `value` units (tsc: at the rate measured). */
uint64_t ws_scale_clock_ticks(uint64_t value);
/* The same for the time clock of a counted program: ns. */
double ws_scale_time_value(uint64_t ticks);
uint64_t ws_scale_time_ticks(uint64_t ns);

#endif
