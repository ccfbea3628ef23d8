/*
 * lud — LU decomposition without pivoting of a diagonally dominant n x n
 * matrix, in place, by recursion on quadrants (Cilk's lu, paper 000
 * Table 1: 1024 x 1024):
 *
 *   A00 = L00 U00;  then in parallel  A01 := L00^-1 A01,  A10 := A10 U00^-1;
 *   A11 -= A10 A01;  A11 = L11 U11.
 *
 * The triangular solves split the independent side in parallel, the update
 * is a divide-and-conquer product.  32 x 32 base blocks.  Check: A x =
 * L (U x) for a random x.
 */
#include <math.h>
#include <ws/ws.h>

#include "../common/bench.h"

#define BASE 32

/* C[m x n] -= A[m x k] B[k x n]; one leading dimension for all. */
static void mul_sub(double *C, const double *A, const double *B, long m, long n,
                    long k, long ld) {
  if (m <= BASE && n <= BASE && k <= BASE) {
    for (long i = 0; i < m; i++)
      for (long p = 0; p < k; p++) {
        double a = A[i * ld + p];
        for (long j = 0; j < n; j++)
          C[i * ld + j] -= a * B[p * ld + j];
      }
  } else if (m >= n && m >= k) {
    long h = m / 2;
    ws_spawn_void(mul_sub, C, A, B, h, n, k, ld);
    mul_sub(C + h * ld, A + h * ld, B, m - h, n, k, ld);
  } else if (n >= k) {
    long h = n / 2;
    ws_spawn_void(mul_sub, C, A, B, m, h, k, ld);
    mul_sub(C + h, A, B + h, m, n - h, k, ld);
  } else {
    long h = k / 2;
    mul_sub(C, A, B, m, n, h, ld);
    mul_sub(C, A + h, B + h * ld, m, n, k - h, ld);
  }
  ws_sync();
}

/* B[m x n] := L^-1 B, L the unit lower triangle of an m x m block. */
static void lower_solve(const double *L, double *B, long m, long n, long ld) {
  if (n > BASE) { /* columns of B are independent */
    long h = n / 2;
    ws_spawn_void(lower_solve, L, B, m, h, ld);
    lower_solve(L, B + h, m, n - h, ld);
  } else if (m > BASE) {
    long h = m / 2;
    lower_solve(L, B, h, n, ld);
    mul_sub(B + h * ld, L + h * ld, B, m - h, n, h, ld);
    lower_solve(L + h * ld + h, B + h * ld, m - h, n, ld);
  } else {
    for (long i = 1; i < m; i++)
      for (long p = 0; p < i; p++) {
        double l = L[i * ld + p];
        for (long j = 0; j < n; j++)
          B[i * ld + j] -= l * B[p * ld + j];
      }
  }
  ws_sync();
}

/* B[m x n] := B U^-1, U the upper triangle of an n x n block. */
static void upper_solve(const double *U, double *B, long m, long n, long ld) {
  if (m > BASE) { /* rows of B are independent */
    long h = m / 2;
    ws_spawn_void(upper_solve, U, B, h, n, ld);
    upper_solve(U, B + h * ld, m - h, n, ld);
  } else if (n > BASE) {
    long h = n / 2;
    upper_solve(U, B, m, h, ld);
    mul_sub(B + h, B, U + h, m, n - h, h, ld);
    upper_solve(U + h * ld + h, B + h, m, n - h, ld);
  } else {
    for (long i = 0; i < m; i++)
      for (long j = 0; j < n; j++) {
        double s = B[i * ld + j];
        for (long p = 0; p < j; p++)
          s -= B[i * ld + p] * U[p * ld + j];
        B[i * ld + j] = s / U[j * ld + j];
      }
  }
  ws_sync();
}

static void lu(double *A, long n, long ld) {
  if (n <= BASE) {
    for (long p = 0; p < n; p++)
      for (long i = p + 1; i < n; i++) {
        double l = A[i * ld + p] /= A[p * ld + p];
        for (long j = p + 1; j < n; j++)
          A[i * ld + j] -= l * A[p * ld + j];
      }
    return;
  }
  long h = n / 2;
  double *A01 = A + h, *A10 = A + h * ld, *A11 = A + h * ld + h;
  lu(A, h, ld);
  ws_spawn_void(lower_solve, A, A01, h, n - h, ld);
  upper_solve(A, A10, n - h, h, ld);
  ws_sync();
  mul_sub(A11, A10, A01, n - h, n - h, h, ld);
  lu(A11, n - h, ld);
}

/* 1 when A x = L (U x) to rounding, LU holding L (unit lower) and U. */
static int check(const double *A, const double *LU, long n) {
  double *x = bench_alloc("lud", (size_t)n * 3 * sizeof *x);
  double *ux = x + n, *ax = x + 2 * n;
  unsigned long long seed = 3;
  for (long i = 0; i < n; i++)
    x[i] = bench_rand01(&seed);
  for (long i = 0; i < n; i++) {
    double s = 0, a = 0;
    for (long j = i; j < n; j++)
      s += LU[i * n + j] * x[j];
    for (long j = 0; j < n; j++)
      a += A[i * n + j] * x[j];
    ux[i] = s;
    ax[i] = a;
  }
  int ok = 1;
  for (long i = 0; i < n && ok; i++) {
    double s = ux[i];
    for (long j = 0; j < i; j++)
      s += LU[i * n + j] * ux[j];
    ok = fabs(s - ax[i]) <= 1e-9 * fabs(ax[i]) + 1e-9;
  }
  free(x);
  return ok;
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 2048, 1024, 1, 16384}};
  long n;
  bench_args(argc, argv, params, 1, &n);

  size_t bytes = (size_t)(n * n) * sizeof(double);
  double *A = bench_alloc("lud", bytes), *LU = bench_alloc("lud", bytes);
  unsigned long long seed = 1;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      A[i * n + j] = bench_rand01(&seed) - 0.5 + (i == j ? (double)n : 0);
  memcpy(LU, A, bytes);

  bench_clock t0 = bench_start();
  lu(LU, n, n);
  bench_clock t = bench_stop(t0);

  printf("lud(%ld)\n", n);
  if (!check(A, LU, n))
    bench_fail("lud", "A != L U");
  bench_time(t);
  free(A);
  free(LU);
  return 0;
}
