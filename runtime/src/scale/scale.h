/*
 * scale.h — the hooks' side of ws-scale (scale.c): their parameters, set
 * by the start-up, and the program's frame, which the start-up begins,
 * measures the hooks' own cost with, and ends at exit.  The frames
 * themselves: scale_frame.h.
 */
#ifndef WS_SCALE_INTERNAL_H
#define WS_SCALE_INTERNAL_H

#include <stdint.h>

#include "scale_frame.h"

/* The hooks' parameters (scale.c), set by the start-up (scale_init.c)
 * before main.  Ticks subtracted from every strand: what the hooks
 * themselves put between two clock reads (measured at start-up); of the
 * time clock. */
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

#endif
