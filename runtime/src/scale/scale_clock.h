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
/* Was any module of the program built with -fws-scale=instructions? */
int ws_scale_clock_counted(void);
/* instructions for a counted program, else tsc on x86, else wall. */
ws_scale_clock_id ws_scale_clock_default(void);

/* Sets ws_scale_now; for tsc, measures its rate for a few milliseconds. */
void ws_scale_clock_select(ws_scale_clock_id id);
/* tsc: measures the rate again over the whole time since the selection
 * (more precise the longer the program ran). */
void ws_scale_clock_refine(void);
/* `ticks` in the clock's unit. */
double ws_scale_clock_value(uint64_t ticks);
/* Ticks in `value` units (tsc: at the rate measured at the selection). */
uint64_t ws_scale_clock_ticks(uint64_t value);

#endif
