/*
 * matmul with OpenMP tasks: the same recursion as ../matmul.c.
 */
#include <omp.h>

#include "../matmul_kernel.h"

static void matmul(double *C, const double *A, const double *B, long m, long n,
                   long k, long ld) {
  if (m * n * k <= MATMUL_BASE) {
    matmul_base(C, A, B, m, n, k, ld);
  } else if (m >= n && m >= k) {
    long h = m / 2;
#pragma omp task
    matmul(C, A, B, h, n, k, ld);
    matmul(C + h * ld, A + h * ld, B, m - h, n, k, ld);
  } else if (n >= k) {
    long h = n / 2;
#pragma omp task
    matmul(C, A, B, m, h, k, ld);
    matmul(C + h, A, B + h, m, n - h, k, ld);
  } else {
    long h = k / 2;
    matmul(C, A, B, m, n, h, ld);
    matmul(C, A + h, B + h * ld, m, n, k - h, ld);
  }
#pragma omp taskwait
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 1536, 1024, 1, 16384}};
  long n;
  bench_args(argc, argv, params, 1, &n);

  double *A = matmul_random(n, 1), *B = matmul_random(n, 2);
  double *C = matmul_zeros(n);
  bench_clock t0 = bench_start();
#pragma omp parallel
#pragma omp single
  matmul(C, A, B, n, n, n, n);
  bench_clock t = bench_stop(t0);

  printf("matmul(%ld)\n", n);
  if (!matmul_check(A, B, C, n))
    bench_fail("matmul", "C != A B (Freivalds check)");
  bench_time(t);
  free(A);
  free(B);
  free(C);
  return 0;
}
