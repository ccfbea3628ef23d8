/* knee.c — a two-piece least-squares fit: a constant, then a line. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "knee.h"

#define MIN_SIDE 3

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Least-squares line through (x, y)[lo, hi): y = a + b x; returns SSE. */
static double fit_line(const double *x, const double *y, int lo, int hi,
                       double *a, double *b) {
  double n = hi - lo, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = lo; i < hi; i++) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  double d = n * sxx - sx * sx;
  *b = d != 0 ? (n * sxy - sx * sy) / d : 0;
  *a = (sy - *b * sx) / n;
  double sse = 0;
  for (int i = lo; i < hi; i++) {
    double r = y[i] - (*a + *b * x[i]);
    sse += r * r;
  }
  return sse;
}

static double fit_const(const double *y, int lo, int hi, double *mean) {
  double s = 0;
  for (int i = lo; i < hi; i++)
    s += y[i];
  *mean = s / (hi - lo);
  double sse = 0;
  for (int i = lo; i < hi; i++)
    sse += (y[i] - *mean) * (y[i] - *mean);
  return sse;
}

knee_fit knee_find(const double *x, const double *y, int n) {
  knee_fit f = {0};
  if (n < 2 * MIN_SIDE) {
    f.why = "too few points";
    return f;
  }
  int best = -1;
  double best_sse = INFINITY, a = 0, b = 0;
  for (int c = MIN_SIDE; c <= n - MIN_SIDE; c++) { /* flat: [0, c) */
    double mean, la, lb;
    double sse = fit_const(y, 0, c, &mean) + fit_line(x, y, c, n, &la, &lb);
    if (sse < best_sse) {
      best_sse = sse;
      best = c;
      f.plateau = mean;
      a = la;
      b = lb;
    }
  }
  f.at = x[best - 1];
  f.slope = b;
  f.step = a + b * x[best] - f.plateau;

  double *dev = malloc(sizeof *dev * (size_t)best);
  if (!dev) {
    f.why = "out of memory";
    return f;
  }
  for (int i = 0; i < best; i++)
    dev[i] = fabs(y[i] - f.plateau);
  f.noise = 1.4826 * median(dev, best);
  free(dev);

  /* Clear: the flat part is flat (a curve that rises from the start has
   * no knee to find), each of the first MIN_SIDE points after it stands
   * well above it, and the rise keeps rising. */
  double margin = fmax(6 * f.noise, 0.005 * f.plateau), pa, pb;
  fit_line(x, y, 0, best, &pa, &pb);
  if (fabs(pb) * (x[best - 1] - x[0]) > margin) {
    f.why = "the part before the knee is not flat";
    return f;
  }
  for (int i = best; i < best + MIN_SIDE; i++)
    if (y[i] - f.plateau <= margin) {
      f.why = "the curve does not rise clearly above its flat part";
      return f;
    }
  if (f.slope < 0) {
    f.why = "the curve falls after the supposed knee";
    return f;
  }
  f.clear = 1;
  return f;
}
