/*
 * jacobi — iterative mesh relaxation: every sweep replaces each interior
 * point of an n x n mesh by the mean of its four neighbours (boundary 0),
 * rows in parallel with ws_for, 16 rows a task (paper 000 Table 1:
 * 1024 x 1024).
 *
 * Check: the mesh starts as a sum of two discrete sine modes, each an
 * eigenvector of the sweep, so after T sweeps every point is known in
 * closed form; a block of rows skipped or swept twice shows up at once.
 */
#include <math.h>
#include <ws/ws.h>

#include "../common/bench.h"

#define ROWS_PER_TASK 16

typedef struct sweep {
  const double *from;
  double *to;
  long n; /* interior points per side; rows are n + 2 long */
} sweep;

static void sweep_rows(long lo, long hi, void *ctx) {
  const sweep *s = ctx;
  long w = s->n + 2;
  for (long i = lo; i < hi; i++)
    for (long j = 1; j <= s->n; j++)
      s->to[i * w + j] = 0.25 * (s->from[(i - 1) * w + j] + s->from[(i + 1) * w + j] +
                                 s->from[i * w + j - 1] + s->from[i * w + j + 1]);
}

/* The two modes: (p, q, amplitude). */
static const double modes[2][3] = {{1, 1, 1.0}, {3, 2, 0.5}};

static double mode(long n, const double *m, long i, long j) {
  return m[2] * sin(M_PI * m[0] * i / (n + 1)) * sin(M_PI * m[1] * j / (n + 1));
}

/* A sweep multiplies mode (p, q) by (cos(pi p/(n+1)) + cos(pi q/(n+1)))/2. */
static double expected(long n, long steps, long i, long j) {
  double u = 0;
  for (int k = 0; k < 2; k++) {
    double lambda = (cos(M_PI * modes[k][0] / (n + 1)) + cos(M_PI * modes[k][1] / (n + 1))) / 2;
    u += pow(lambda, (double)steps) * mode(n, modes[k], i, j);
  }
  return u;
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 1024, 1024, 1, 32768},
                                       {"sweeps", 1000, 1000, 0, 1000000}};
  long v[2];
  bench_args(argc, argv, params, 2, v);
  long n = v[0], steps = v[1], w = n + 2;

  double *a = bench_alloc("jacobi", (size_t)(w * w) * sizeof *a);
  double *b = bench_alloc("jacobi", (size_t)(w * w) * sizeof *b);
  for (long i = 0; i < w; i++)
    for (long j = 0; j < w; j++) {
      int edge = i == 0 || j == 0 || i == w - 1 || j == w - 1;
      a[i * w + j] = edge ? 0 : mode(n, modes[0], i, j) + mode(n, modes[1], i, j);
      b[i * w + j] = 0;
    }

  bench_clock t0 = bench_start();
  for (long s = 0; s < steps; s++) {
    sweep sw = {a, b, n};
    ws_for(1, n + 1, ROWS_PER_TASK, sweep_rows, &sw);
    double *t = a;
    a = b;
    b = t;
  }
  bench_clock t = bench_stop(t0);

  double err = 0;
  for (long i = 1; i <= n; i++)
    for (long j = 1; j <= n; j++)
      err = fmax(err, fabs(a[i * w + j] - expected(n, steps, i, j)));
  printf("jacobi(%ld x %ld, %ld sweeps): max error %.3g\n", n, n, steps, err);
  if (!(err < 1e-10))
    bench_fail("jacobi", "max error %g against the closed form", err);
  bench_time(t);
  free(a);
  free(b);
  return 0;
}
