/* sb_sweep.c — the bracketed sweep and its three readings, and the
 * capacity estimate (sb_sweep.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sb_sweep.h"

#define STEADY 0.002 /* references this close: the clock held still */
#define TRIES 20     /* bracketed readings per (repetition, k, pattern) */
#define SB_FASTEST_RANK 2 /* "fastest": the third fastest repetition */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_of(double *v, size_t n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void sb_sweep_free(sb_sweep *s) {
  for (int v = 0; v < 2; v++) {
    free(s->median[v]);
    free(s->fastest[v]);
    free(s->min_raw[v]);
    free(s->rel[v]);
  }
  memset(s, 0, sizeof *s);
}

int sb_sweep_run(sb_kernels *ks, unsigned kmin, unsigned kmax, unsigned reps,
                 uint64_t iters, int distinct, int same, sb_sweep *s) {
  memset(s, 0, sizeof *s);
  s->kmin = kmin;
  s->kmax = kmax;
  s->reps = reps;
  s->have[SB_DISTINCT] = distinct;
  s->have[SB_SAME] = same;
  unsigned n = kmax - kmin + 1;
  size_t cells = (size_t)n * reps, nref = 0;
  double *raw[2] = {NULL, NULL};
  double *refs = malloc(2 * cells * sizeof *refs);
  int ok = refs != NULL;
  for (int v = 0; v < 2; v++)
    if (s->have[v]) {
      raw[v] = malloc(cells * sizeof *raw[v]);
      s->rel[v] = malloc(cells * sizeof *s->rel[v]);
      s->median[v] = calloc(n, sizeof *s->median[v]);
      s->fastest[v] = calloc(n, sizeof *s->fastest[v]);
      s->min_raw[v] = calloc(n, sizeof *s->min_raw[v]);
      ok = ok && raw[v] && s->rel[v] && s->median[v] && s->fastest[v] && s->min_raw[v];
      for (size_t c = 0; ok && c < cells; c++)
        raw[v][c] = s->rel[v][c] = NAN;
    }
  if (!ok) {
    free(refs);
    free(raw[0]);
    free(raw[1]);
    sb_sweep_free(s);
    return -1;
  }
  double prev = sb_kernels_time(ks, 0, 0, iters);
  for (unsigned r = 0; r < reps; r++)
    for (unsigned i = 0; i < n; i++) {
      unsigned k = r % 2 ? kmax - i : kmin + i;
      size_t c = (size_t)(k - kmin) * reps + r;
      for (int v = 0; v < 2; v++)
        for (int t = 0; s->have[v] && t < TRIES; t++) {
          double x = sb_kernels_time(ks, k, v, iters);
          double next = sb_kernels_time(ks, 0, 0, iters);
          int steady = fabs(next - prev) <= STEADY * fmin(next, prev);
          double ref = (prev + next) / 2;
          prev = next;
          if (steady) {
            raw[v][c] = x;
            s->rel[v][c] = x / ref;
            refs[nref++] = ref;
            break;
          }
        }
    }
  s->chain = nref ? median_of(refs, nref) : NAN;
  double *sorted = refs; /* reused: at least reps doubles */
  for (int v = 0; v < 2; v++) {
    if (!s->have[v])
      continue;
    for (unsigned i = 0; i < n; i++) {
      const double *rw = raw[v] + (size_t)i * reps, *rl = s->rel[v] + (size_t)i * reps;
      size_t m = 0;
      double best_raw = INFINITY;
      for (unsigned r = 0; r < reps; r++)
        if (!isnan(rw[r])) {
          sorted[m++] = rl[r];
          best_raw = fmin(best_raw, rw[r]);
        }
      if (m == 0) {
        if (!s->unsteady || kmin + i < s->unsteady)
          s->unsteady = kmin + i;
        continue;
      }
      s->median[v][i] = median_of(sorted, m) * s->chain;
      /* sorted by median_of; a single freak timing (a bracket that caught
       * the clock mid-change) does not count as a state */
      s->fastest[v][i] = sorted[m > SB_FASTEST_RANK ? SB_FASTEST_RANK : m - 1] * s->chain;
      s->min_raw[v][i] = best_raw;
    }
    free(raw[v]);
  }
  free(refs);
  return 0;
}

/* Share of the steady repetitions at k that took at most `ticks`. */
static double share_at_most(const sb_sweep *s, int v, unsigned k, double ticks) {
  const double *rl = s->rel[v] + (size_t)(k - s->kmin) * s->reps;
  unsigned m = 0, below = 0;
  for (unsigned r = 0; r < s->reps; r++)
    if (!isnan(rl[r])) {
      m++;
      below += rl[r] * s->chain <= ticks;
    }
  return m ? (double)below / m : 0;
}

void sb_estimate_from(const sb_sweep *s, int min_raw, sb_estimate *e) {
  memset(e, 0, sizeof *e);
  unsigned n = s->kmax - s->kmin + 1;
  double *x = malloc(n * sizeof *x);
  if (!x)
    return;
  for (unsigned i = 0; i < n; i++)
    x[i] = s->kmin + i;
  int fast_v = -1;
  for (int v = 0; v < 2; v++) {
    if (!s->have[v])
      continue;
    e->median[v] = knee_find(x, min_raw ? s->min_raw[v] : s->median[v], (int)n);
    e->fastest[v] = knee_find(x, s->fastest[v], (int)n);
    if (e->median[v].clear && e->median[v].at > e->typical)
      e->typical = (unsigned)e->median[v].at;
    if (e->median[v].clear && e->median[v].at > e->entries)
      e->entries = (unsigned)e->median[v].at;
    if (e->fastest[v].clear && e->fastest[v].at > e->entries) {
      e->entries = (unsigned)e->fastest[v].at;
      fast_v = v;
    }
  }
  free(x);
  e->clear = e->entries > 0;
  /* Two states: the fastest repetitions stay flat well past the median's
   * knee (or the median has none).  Halfway between, the share of
   * repetitions that still ran at the flat part's speed says how often the
   * larger state showed. */
  unsigned gap = e->entries / 10 > 4 ? e->entries / 10 : 4;
  if (fast_v >= 0 && e->typical + gap <= e->entries) {
    const knee_fit *f = &e->fastest[fast_v];
    e->two_states = 1;
    unsigned from = e->typical ? e->typical : s->kmin;
    e->probe_k = (from + e->entries + 1) / 2;
    e->flat_share = share_at_most(s, fast_v, e->probe_k, f->plateau + f->step / 2);
  }
}
