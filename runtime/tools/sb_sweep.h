/*
 * sb_sweep.h — the store-buffer capacity curve of paper 000 §7.2 (Figs. 6,
 * 7), as ws-sbmeasure and ws-calibrate take it: for k = kmin..kmax, the
 * time of k stores and a long dependent chain (sb_kernel.h), each timing
 * bracketed by two timings of the chain alone and retaken when the two
 * disagree (the clock moved).  Every repetition sweeps all k, in
 * alternating order.
 *
 * Three readings of the repetitions at each k:
 *   median   of the time relative to its brackets (in ticks, times the
 *            chain's median time): the capacity the core shows most of the
 *            time, robust on a shared machine whose clock moves;
 *   fastest  the third smallest relative time (one or two freak timings
 *            do not count): the largest capacity the core showed at all.  A core whose capacity changes over time (a
 *            guest whose host runs the SMT sibling: the store queue is
 *            split between the two threads) shows its larger state only
 *            in some repetitions, and the median hides it;
 *   min_raw  the smallest raw time, the paper's reading, right on a quiet
 *            machine with a steady clock.
 */
#ifndef WS_SB_SWEEP_H
#define WS_SB_SWEEP_H

#include <stdint.h>

#include "knee.h"
#include "sb_kernel.h"

enum { SB_DISTINCT, SB_SAME }; /* k distinct lines, k stores to one location */

typedef struct sb_sweep {
  unsigned kmin, kmax, reps;
  int have[2];         /* which store patterns were measured */
  double *median[2];   /* ticks per iteration, per k - kmin */
  double *fastest[2];
  double *min_raw[2];
  double *rel[2];      /* per (k - kmin) * reps + repetition; NAN: unsteady */
  double chain;        /* the chain's median time, ticks */
  unsigned unsteady;   /* the first k with no steady timing at all, or 0 */
} sb_sweep;

/* Measures.  0, or -1 when out of memory. */
int sb_sweep_run(sb_kernels *ks, unsigned kmin, unsigned kmax, unsigned reps,
                 uint64_t iters, int distinct, int same, sb_sweep *out);
void sb_sweep_free(sb_sweep *s);

/* What the curves say about the capacity. */
typedef struct sb_estimate {
  knee_fit median[2], fastest[2]; /* median: min_raw's fit with that reading */
  int clear;          /* some curve has a clear knee */
  unsigned entries;   /* the largest capacity seen: the largest clear knee */
  unsigned typical;   /* the largest clear knee of the median curves; 0: none */
  int two_states;     /* the fastest repetitions show a capacity the median
                         does not */
  unsigned probe_k;   /* with two states: a k between the two knees, */
  double flat_share;  /* and the share of repetitions flat there */
} sb_estimate;

/* min_raw: take the paper's reading instead of the median for the
 * typical curve. */
void sb_estimate_from(const sb_sweep *s, int min_raw, sb_estimate *e);

#endif
