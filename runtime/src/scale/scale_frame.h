/*
 * scale_frame.h — ws-scale's data: the frames of the series-parallel DAG
 * that the hooks keep, per worker, and the figures the report reads; and
 * how libws_scale stops a program.  Types only: the bottom of its layers.
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
#ifndef WS_SCALE_FRAME_H
#define WS_SCALE_FRAME_H

#include <stdatomic.h>
#include <stdint.h>

#include "../fatal.h"

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

/* Stops the program with "ws-scale: <message>", exit status 2. */
#define ws_scale_fatal(...) ws_fatal_as("ws-scale", __VA_ARGS__)

#endif
