/*
 * integrate — adaptive trapezoid quadrature of f(x) = (x^2 + 1) x over
 * [0, n]: an interval whose two halves do not agree with it to within
 * epsilon is split, and the halves are integrated in parallel (Cilk's
 * integrate, paper 000 Table 1: n = 10000).  No cut-off: a task is one
 * evaluation of f, and the tree is deep and irregular.
 */
#include <math.h>
#include <ws/ws.h>

#include "../common/bench.h"

#define EPSILON 1.0e-9

static double f(double x) { return (x * x + 1.0) * x; }

static double integrate(double x1, double y1, double x2, double y2,
                        double area) {
  double half = (x2 - x1) / 2;
  double x0 = x1 + half;
  double y0 = f(x0);
  double left = (y1 + y0) / 2 * half;
  double right = (y0 + y2) / 2 * half;
  if (fabs(left + right - area) < EPSILON)
    return left + right;
  double a, b;
  ws_spawn(a, integrate, x1, y1, x0, y0, left);
  b = integrate(x0, y0, x2, y2, right);
  ws_sync();
  return a + b;
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 10000, 10000, 1, 1000000}};
  long n;
  bench_args(argc, argv, params, 1, &n);

  double x = (double)n;
  bench_clock t0 = bench_start();
  double r = integrate(0, f(0), x, f(x), (f(0) + f(x)) / 2 * x);
  bench_clock t = bench_stop(t0);

  double exact = x * x * x * x / 4 + x * x / 2;
  printf("integrate(0, %ld) = %.17g (exact %.17g)\n", n, r, exact);
  if (!(fabs(r - exact) <= 1e-6 * exact))
    bench_fail("integrate", "relative error %g", fabs(r - exact) / exact);
  bench_time(t);
  return 0;
}
