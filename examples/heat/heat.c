/*
 * heat — heat diffusion on an nx x ny plate with the edges held at 0,
 * explicit time steps of the 5-point Laplacian (paper 000 Table 1:
 * 4096 x 1024).  Each step splits the rows in halves recursively, as
 * Cilk's heat does, down to 32 rows a task.
 *
 * Check: the plate starts as a sum of two discrete sine modes; an explicit
 * step multiplies mode (p, q) by 1 - 4r sin^2(pi p / 2(nx+1))
 * - 4r sin^2(pi q / 2(ny+1)), so every point is known in closed form.
 */
#include <math.h>
#include <ws/ws.h>

#include "../common/bench.h"

#define ROWS_PER_TASK 32
#define R 0.2 /* dt / h^2; explicit steps are stable up to 0.25 */

static void step_rows(const double *from, double *to, long ny, long lo,
                      long hi) {
  if (hi - lo > ROWS_PER_TASK) {
    long mid = lo + (hi - lo) / 2;
    ws_spawn_void(step_rows, from, to, ny, lo, mid);
    step_rows(from, to, ny, mid, hi);
    ws_sync();
    return;
  }
  long w = ny + 2;
  for (long i = lo; i < hi; i++)
    for (long j = 1; j <= ny; j++) {
      double u = from[i * w + j];
      to[i * w + j] = u + R * (from[(i - 1) * w + j] + from[(i + 1) * w + j] +
                               from[i * w + j - 1] + from[i * w + j + 1] - 4 * u);
    }
}

/* The two modes: (p, q, amplitude). */
static const double modes[2][3] = {{1, 1, 1.0}, {2, 5, 0.5}};

static double mode(long nx, long ny, const double *m, long i, long j) {
  return m[2] * sin(M_PI * m[0] * i / (nx + 1)) * sin(M_PI * m[1] * j / (ny + 1));
}

static double expected(long nx, long ny, long steps, long i, long j) {
  double u = 0;
  for (int k = 0; k < 2; k++) {
    double sx = sin(M_PI * modes[k][0] / (2.0 * (nx + 1)));
    double sy = sin(M_PI * modes[k][1] / (2.0 * (ny + 1)));
    double g = 1 - 4 * R * sx * sx - 4 * R * sy * sy;
    u += pow(g, (double)steps) * mode(nx, ny, modes[k], i, j);
  }
  return u;
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"nx", 4096, 4096, 1, 65536},
                                       {"ny", 1024, 1024, 1, 65536},
                                       {"steps", 150, 150, 0, 1000000}};
  long v[3];
  bench_args(argc, argv, params, 3, v);
  long nx = v[0], ny = v[1], steps = v[2], w = ny + 2;

  size_t cells = (size_t)((nx + 2) * w);
  double *a = bench_alloc("heat", cells * sizeof *a);
  double *b = bench_alloc("heat", cells * sizeof *b);
  for (long i = 0; i < nx + 2; i++)
    for (long j = 0; j < w; j++) {
      int edge = i == 0 || j == 0 || i == nx + 1 || j == ny + 1;
      a[i * w + j] = edge ? 0 : mode(nx, ny, modes[0], i, j) + mode(nx, ny, modes[1], i, j);
      b[i * w + j] = 0;
    }

  bench_clock t0 = bench_start();
  for (long s = 0; s < steps; s++) {
    step_rows(a, b, ny, 1, nx + 1);
    double *t = a;
    a = b;
    b = t;
  }
  bench_clock t = bench_stop(t0);

  double err = 0;
  for (long i = 1; i <= nx; i++)
    for (long j = 1; j <= ny; j++)
      err = fmax(err, fabs(a[i * w + j] - expected(nx, ny, steps, i, j)));
  printf("heat(%ld x %ld, %ld steps): max error %.3g\n", nx, ny, steps, err);
  if (!(err < 1e-10))
    bench_fail("heat", "max error %g against the closed form", err);
  bench_time(t);
  free(a);
  free(b);
  return 0;
}
