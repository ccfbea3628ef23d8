/*
 * scale.h — ws-scale internals: the frames of the series-parallel DAG that
 * the hooks keep, per worker, and what the report reads.
 *
 * Every function that spawns has a frame, and so has every spawned task (the
 * wrapper of the spawned call) and every region.  A frame holds its figures
 * so far: work, span and burdened span along the continuation, with the
 * children already joined.  A spawn hands its child the spawning frame and
 * that frame's span at the spawn; the child's frame starts from that span,
 * so when it ends its span is the length of the path through it, and it
 * folds it into the spawning frame under the frame's lock (children may end
 * on any worker).  A sync takes the max of the continuation and the
 * children.
 *
 * A program built with -fws-scale has two clocks (scale_clock.h): the DAG
 * is in instructions, and every strand is timed too.  The time figures
 * follow the DAG's choices: twork adds up like work, and tspan (tbspan) is
 * the time of the path whose instructions make span (bspan), so a max is
 * only ever taken over deterministic counts.
 *
 * wsff steals children, never continuations: a function invocation runs
 * from entry to exit on one worker, and a task runs whole on the worker
 * that took it, so each worker's frames form a stack.  Frames are reused
 * (the `above` chain) and never move: a child on another worker writes to
 * its spawning frame until that frame's next sync.
 */
#ifndef WS_SCALE_INTERNAL_H
#define WS_SCALE_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

typedef enum ws_scale_kind {
  WS_SCALE_BASE,     /* bottom of a worker's stack (worker 0: the program) */
  WS_SCALE_FUNCTION, /* an invocation of a function that spawns */
  WS_SCALE_TASK,     /* a spawned call */
  WS_SCALE_REGION,   /* ws_scale_begin .. ws_scale_end */
} ws_scale_kind;

/* Figures in clock ticks (ws_scale_clock_value, ws_scale_time_value
 * convert). */
typedef struct ws_scale_figures {
  uint64_t work;   /* every strand, children included */
  uint64_t span;   /* the longest path from the frame's start */
  uint64_t bspan;  /* the same with every spawn charged the burden */
  uint64_t spawns; /* spawns executed, children included */
  /* With two clocks: the time of every strand, of the path that makes
   * span, of the path that makes bspan (time burden included); else 0. */
  uint64_t twork, tspan, tbspan;
} ws_scale_figures;

typedef struct ws_scale_frame {
  /* Owned by the worker that runs the frame. */
  struct ws_scale_frame *below; /* the frame underneath on this worker */
  struct ws_scale_frame *above; /* kept for the next push */
  ws_scale_kind kind;
  int outstanding;      /* spawns since the last sync */
  int resume_running;   /* task: was the clock running where it began */
  ws_scale_figures f;   /* task: span and bspan start at the spawn's */
  struct ws_scale_frame *spawner; /* task: the frame it joins */
  const char *name;               /* region */
  /* Written by the children (on any worker), under `lock`, until the next
   * sync, which reads and clears them once the runtime says they are done
   * (the runtime's join orders their writes before it).  The longest
   * child's span and its time go together: hence a lock, not atomics. */
  _Alignas(64) _Atomic int lock;
  ws_scale_figures child;
} ws_scale_frame;

/* The clock of the DAG, and with -fws-scale the time clock beside it
 * (ws_scale_timed; scale_clock.c). */
extern uint64_t (*ws_scale_now)(void);
extern uint64_t (*ws_scale_tnow)(void);
extern int ws_scale_timed;
/* Ticks subtracted from every strand: what the hooks themselves put
 * between two clock reads (measured at start-up); of the time clock. */
extern uint64_t ws_scale_residual, ws_scale_tresidual;
/* The burden of one spawn, in ticks of either clock. */
extern uint64_t ws_scale_burden, ws_scale_tburden;

/* The program's frame (worker 0's base): its figures once main returned. */
ws_scale_frame *ws_scale_program(void);
/* Starts the program's frame on this thread (the main thread), clock
 * running, figures zero. */
void ws_scale_start_program(void);
/* At exit: ends the last strand, folds frames still open (exit() called
 * inside them) into the program's, and returns how many there were. */
int ws_scale_finish_program(void);
/* Ticks the hooks add to an empty strand (calibration, with the residuals
 * at 0), of the DAG clock (returned) and of the time clock (*tresidual);
 * resets the program's frame afterwards. */
uint64_t ws_scale_measure_residual(uint64_t *tresidual);

/* Regions (scale_regions.c): instances with one name add up. */
typedef struct ws_scale_region_row {
  char *name;
  uint64_t count;
  ws_scale_figures f;
} ws_scale_region_row;

void ws_scale_region_record(const char *name, const ws_scale_figures *f);
/* The rows in order of first appearance; valid until the next record. */
const ws_scale_region_row *ws_scale_region_rows(int *n);

/* Stops the program with "ws-scale: <message>", exit status 2. */
__attribute__((noreturn, format(printf, 1, 2))) void
ws_scale_fatal(const char *fmt, ...);

#endif
