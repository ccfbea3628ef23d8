/*
 * cholesky — Cholesky factorization A = L L^T of a symmetric positive
 * definite n x n matrix, in place in the lower triangle, by recursion on
 * quadrants:
 *
 *   A00 = L00 L00^T;  A10 := A10 L00^-T;  A11 -= A10 A10^T;  A11 = L11 L11^T.
 *
 * The solve splits the rows of A10 in parallel, the update is a
 * divide-and-conquer product over the lower triangle only.  32 x 32 base
 * blocks.  Paper 000 Table 1 runs Cilk's sparse version (quad-tree
 * matrices, 4000 x 4000 with 40000 nonzeros); this one is dense, which
 * keeps the same recursive task structure without the sparse bookkeeping.
 * Check: A x = L (L^T x) for a random x.
 */
#include <math.h>
#include <ws/ws.h>

#include "../common/bench.h"

#define BASE 32

/* C[m x n] -= A[m x k] B[n x k]^T; one leading dimension for all. */
static void mul_sub_t(double *C, const double *A, const double *B, long m,
                      long n, long k, long ld) {
  if (m <= BASE && n <= BASE && k <= BASE) {
    for (long i = 0; i < m; i++)
      for (long j = 0; j < n; j++) {
        double s = 0;
        for (long p = 0; p < k; p++)
          s += A[i * ld + p] * B[j * ld + p];
        C[i * ld + j] -= s;
      }
  } else if (m >= n && m >= k) {
    long h = m / 2;
    ws_spawn_void(mul_sub_t, C, A, B, h, n, k, ld);
    mul_sub_t(C + h * ld, A + h * ld, B, m - h, n, k, ld);
  } else if (n >= k) {
    long h = n / 2;
    ws_spawn_void(mul_sub_t, C, A, B, m, h, k, ld);
    mul_sub_t(C + h, A, B + h * ld, m, n - h, k, ld);
  } else {
    long h = k / 2;
    mul_sub_t(C, A, B, m, n, h, ld);
    mul_sub_t(C, A + h, B + h, m, n, k - h, ld);
  }
  ws_sync();
}

/* The lower triangle of C[n x n] -= A[n x k] A^T. */
static void syrk(double *C, const double *A, long n, long k, long ld) {
  if (n <= BASE) {
    for (long i = 0; i < n; i++)
      for (long j = 0; j <= i; j++) {
        double s = 0;
        for (long p = 0; p < k; p++)
          s += A[i * ld + p] * A[j * ld + p];
        C[i * ld + j] -= s;
      }
    return;
  }
  long h = n / 2;
  ws_spawn_void(syrk, C, A, h, k, ld);
  ws_spawn_void(mul_sub_t, C + h * ld, A + h * ld, A, n - h, h, k, ld);
  syrk(C + h * ld + h, A + h * ld, n - h, k, ld);
  ws_sync();
}

/* B[m x n] := B L^-T, L the lower triangle of an n x n block. */
static void solve(const double *L, double *B, long m, long n, long ld) {
  if (m > BASE) { /* rows of B are independent */
    long h = m / 2;
    ws_spawn_void(solve, L, B, h, n, ld);
    solve(L, B + h * ld, m - h, n, ld);
  } else if (n > BASE) {
    long h = n / 2;
    solve(L, B, m, h, ld);
    mul_sub_t(B + h, B, L + h * ld, m, n - h, h, ld);
    solve(L + h * ld + h, B + h, m, n - h, ld);
  } else {
    for (long i = 0; i < m; i++)
      for (long j = 0; j < n; j++) {
        double s = B[i * ld + j];
        for (long p = 0; p < j; p++)
          s -= B[i * ld + p] * L[j * ld + p];
        B[i * ld + j] = s / L[j * ld + j];
      }
  }
  ws_sync();
}

static void cholesky(double *A, long n, long ld) {
  if (n <= BASE) {
    for (long j = 0; j < n; j++) {
      double d = A[j * ld + j];
      for (long p = 0; p < j; p++)
        d -= A[j * ld + p] * A[j * ld + p];
      d = sqrt(d);
      A[j * ld + j] = d;
      for (long i = j + 1; i < n; i++) {
        double s = A[i * ld + j];
        for (long p = 0; p < j; p++)
          s -= A[i * ld + p] * A[j * ld + p];
        A[i * ld + j] = s / d;
      }
    }
    return;
  }
  long h = n / 2;
  double *A10 = A + h * ld, *A11 = A + h * ld + h;
  cholesky(A, h, ld);
  solve(A, A10, n - h, h, ld);
  syrk(A11, A10, n - h, h, ld);
  cholesky(A11, n - h, ld);
}

/* 1 when A x = L (L^T x) to rounding, L the lower triangle of F. */
static int check(const double *A, const double *F, long n) {
  double *x = bench_alloc("cholesky", (size_t)n * 3 * sizeof *x);
  double *y = x + n, *ax = x + 2 * n;
  unsigned long long seed = 5;
  for (long i = 0; i < n; i++)
    x[i] = bench_rand01(&seed);
  for (long i = 0; i < n; i++) {
    y[i] = 0;
    ax[i] = 0;
    for (long j = 0; j < n; j++)
      ax[i] += A[i * n + j] * x[j];
  }
  for (long j = 0; j < n; j++) /* y = L^T x */
    for (long i = j; i < n; i++)
      y[j] += F[i * n + j] * x[i];
  int ok = 1;
  for (long i = 0; i < n && ok; i++) {
    double s = 0;
    for (long j = 0; j <= i; j++)
      s += F[i * n + j] * y[j];
    ok = fabs(s - ax[i]) <= 1e-9 * fabs(ax[i]) + 1e-9;
  }
  free(x);
  return ok;
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 2048, 4000, 1, 16384}};
  long n;
  bench_args(argc, argv, params, 1, &n);

  /* Symmetric, and positive definite by diagonal dominance. */
  size_t bytes = (size_t)(n * n) * sizeof(double);
  double *A = bench_alloc("cholesky", bytes), *F = bench_alloc("cholesky", bytes);
  unsigned long long seed = 11;
  for (long i = 0; i < n; i++)
    for (long j = 0; j <= i; j++) {
      double v = bench_rand01(&seed) - 0.5 + (i == j ? (double)n : 0);
      A[i * n + j] = A[j * n + i] = v;
    }
  memcpy(F, A, bytes);

  bench_clock t0 = bench_start();
  cholesky(F, n, n);
  bench_clock t = bench_stop(t0);

  printf("cholesky(%ld)\n", n);
  if (!check(A, F, n))
    bench_fail("cholesky", "A != L L^T");
  bench_time(t);
  free(A);
  free(F);
  return 0;
}
