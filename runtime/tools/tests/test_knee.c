/* test_knee.c — knee_find on curves of known shape: the plateau-step-slope
 * this machine shows, the paper's Fig. 7 shape without a step, a dip inside
 * the plateau, and curves that have no knee to find; and sb_estimate_from
 * on repetitions of a core with one capacity and with two. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "knee.h"
#include "sb_sweep.h"

#define N 200

static double x[N], y[N];

/* Deterministic noise in [-a, a]. */
static double noise(int i, double a) {
  unsigned h = (unsigned)i * 2654435761u;
  return a * ((double)(h >> 8) / (double)(1u << 24) * 2 - 1);
}

static void curve(int n, double plateau, int knee, double step, double slope,
                  double jitter) {
  for (int i = 0; i < n; i++) {
    x[i] = i + 1;
    y[i] = plateau + noise(i, jitter);
    if (x[i] > knee)
      y[i] += step + slope * (x[i] - knee - 1);
  }
}

int main(void) {
  knee_fit f;

  curve(N, 365.5, 112, 17.5, 0.68, 0.2); /* as measured on this machine */
  f = knee_find(x, y, N);
  CHECK(f.clear && f.at == 112, "clear=%d at=%g (%s)", f.clear, f.at, f.why ? f.why : "");
  CHECK(fabs(f.plateau - 365.5) < 0.2 && fabs(f.slope - 0.68) < 0.05,
        "plateau=%g slope=%g", f.plateau, f.slope);

  for (int i = 41; i < 53; i++) /* a 2.5% dip inside the plateau */
    y[i] -= 9;
  f = knee_find(x, y, N);
  CHECK(f.clear && f.at == 112, "with a dip: clear=%d at=%g", f.clear, f.at);

  curve(80, 100, 32, 0, 2.0, 0.1); /* Fig. 7: no step, a steady rise */
  f = knee_find(x, y, 80);
  CHECK(f.clear && fabs(f.at - 32) <= 1, "no step: clear=%d at=%g", f.clear, f.at);

  curve(N, 300, 1000, 0, 0, 0.3); /* never rises: kmax below the capacity */
  f = knee_find(x, y, N);
  CHECK(!f.clear && f.why, "flat: clear=%d at=%g", f.clear, f.at);

  curve(N, 100, 0, 0, 1.0, 0.1); /* rises from the start: chain too short */
  f = knee_find(x, y, N);
  CHECK(!f.clear && f.why, "rising: clear=%d at=%g", f.clear, f.at);

  curve(N, 300, 100, 0.3, 0.0, 0.3); /* a step inside the noise */
  f = knee_find(x, y, N);
  CHECK(!f.clear, "step within noise: clear=%d at=%g", f.clear, f.at);

  curve(5, 300, 2, 20, 1, 0);
  f = knee_find(x, y, 5);
  CHECK(!f.clear && f.why, "five points: clear=%d", f.clear);

  /* A sweep of 61 repetitions where a share of them (`large`) ran with
   * 64 entries and the others with 32, as on the Zen 4 guest. */
  for (double large = 0; large <= 0.41; large += 0.4) {
    enum { KMAX = 120, REPS = 61 };
    sb_sweep s = {1, KMAX, REPS, {1, 0}, {0}, {0}, {0}, {0}, 590, 0};
    s.median[0] = calloc(KMAX, sizeof(double));
    s.fastest[0] = calloc(KMAX, sizeof(double));
    s.min_raw[0] = calloc(KMAX, sizeof(double));
    s.rel[0] = calloc((size_t)KMAX * REPS, sizeof(double));
    for (int k = 1; k <= KMAX; k++) {
      double *rl = s.rel[0] + (size_t)(k - 1) * REPS, sorted[REPS];
      for (int r = 0; r < REPS; r++) {
        int knee = r < large * REPS ? 64 : 32;
        double t = 590 + noise(k * REPS + r, 0.3) + (k > knee ? 11 + 0.7 * (k - knee - 1) : 0);
        rl[r] = t / 590;
        sorted[r] = t;
      }
      for (int i = 1; i < REPS; i++) /* insertion sort */
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
          double t = sorted[j];
          sorted[j] = sorted[j - 1];
          sorted[j - 1] = t;
        }
      s.median[0][k - 1] = sorted[REPS / 2];
      s.fastest[0][k - 1] = sorted[2];
      s.min_raw[0][k - 1] = sorted[0];
    }
    sb_estimate e;
    sb_estimate_from(&s, 0, &e);
    if (large == 0)
      CHECK(e.clear && e.entries == 32 && e.typical == 32 && !e.two_states,
            "one state: entries=%u typical=%u two=%d", e.entries, e.typical, e.two_states);
    else
      CHECK(e.clear && e.entries == 64 && e.typical == 32 && e.two_states &&
                e.probe_k == 48 && fabs(e.flat_share - 25.0 / 61) < 0.01,
            "two states: entries=%u typical=%u two=%d at k=%u %.2f flat", e.entries,
            e.typical, e.two_states, e.probe_k, e.flat_share);
    sb_sweep_free(&s);
  }

  return check_report("test_knee");
}
