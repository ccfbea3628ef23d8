/*
 * matmul_kernel.h — the serial parts of matmul, shared with the peers: the
 * base case of the recursion, the inputs, and a Freivalds check of the
 * product (C x = A (B x) for a random x, O(n^2), catches any wrong block).
 */
#ifndef MATMUL_KERNEL_H
#define MATMUL_KERNEL_H

#include <math.h>

#include "../common/bench.h"

/* Below this many multiply-adds a block is multiplied in place. */
#define MATMUL_BASE (32L * 32L * 32L)

/* C[m x n] += A[m x k] * B[k x n], all row-major with leading dimension ld. */
static inline void matmul_base(double *restrict C, const double *restrict A,
                               const double *restrict B, long m, long n, long k,
                               long ld) {
  for (long i = 0; i < m; i++)
    for (long p = 0; p < k; p++) {
      double a = A[i * ld + p];
      for (long j = 0; j < n; j++)
        C[i * ld + j] += a * B[p * ld + j];
    }
}

static inline double *matmul_random(long n, unsigned long long seed) {
  double *M = (double *)bench_alloc("matmul", (size_t)(n * n) * sizeof *M);
  for (long i = 0; i < n * n; i++)
    M[i] = bench_rand01(&seed) - 0.5;
  return M;
}

static inline double *matmul_zeros(long n) {
  double *M = (double *)bench_alloc("matmul", (size_t)(n * n) * sizeof *M);
  memset(M, 0, (size_t)(n * n) * sizeof *M);
  return M;
}

/* y = M x */
static inline void matmul_vec(const double *M, const double *x, double *y,
                              long n) {
  for (long i = 0; i < n; i++) {
    double s = 0;
    for (long j = 0; j < n; j++)
      s += M[i * n + j] * x[j];
    y[i] = s;
  }
}

/* 1 when C = A B to rounding. */
static inline int matmul_check(const double *A, const double *B,
                               const double *C, long n) {
  double *x = (double *)bench_alloc("matmul", (size_t)n * 4 * sizeof *x);
  double *bx = x + n, *abx = x + 2 * n, *cx = x + 3 * n;
  unsigned long long seed = 7;
  for (long i = 0; i < n; i++)
    x[i] = bench_rand01(&seed);
  matmul_vec(B, x, bx, n);
  matmul_vec(A, bx, abx, n);
  matmul_vec(C, x, cx, n);
  int ok = 1;
  for (long i = 0; i < n && ok; i++)
    ok = fabs(cx[i] - abx[i]) <= 1e-9 * (double)n;
  free(x);
  return ok;
}

#endif
