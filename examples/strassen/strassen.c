/*
 * strassen — C = A B for n x n matrices, n a power of two, by Strassen's
 * seven half-size products, which run in parallel; standard product below
 * 64 x 64 (Cilk's strassen, paper 000 Table 1: 4096 x 4096).  Each product
 * forms its operands in temporaries of its own.  Check: Freivalds, as
 * matmul.
 */
#include <malloc.h>
#include <ws/ws.h>

#include "../matmul/matmul_kernel.h"

#define BASE 64

static void strassen(double *C, long ldc, const double *A, long lda,
                     const double *B, long ldb, long n);

/* dst[h x h] = X + sign Y (Y may be null: a copy of X). */
static void form(double *dst, const double *X, long ldx, const double *Y,
                 long ldy, double sign, long h) {
  for (long i = 0; i < h; i++)
    for (long j = 0; j < h; j++)
      dst[i * h + j] = X[i * ldx + j] + (Y ? sign * Y[i * ldy + j] : 0);
}

/* M = (X1 + sx X2)(Y1 + sy Y2), all h x h; X2/Y2 null for a bare quadrant.
 * S and T are h x h scratch. */
static void product(double *M, const double *X1, const double *X2, double sx,
                    long lda, const double *Y1, const double *Y2, double sy,
                    long ldb, long h, double *S, double *T) {
  const double *x = X1, *y = Y1;
  long ldx = lda, ldy = ldb;
  if (X2) {
    form(S, X1, lda, X2, lda, sx, h);
    x = S;
    ldx = h;
  }
  if (Y2) {
    form(T, Y1, ldb, Y2, ldb, sy, h);
    y = T;
    ldy = h;
  }
  strassen(M, h, x, ldx, y, ldy, h);
}

static void strassen(double *C, long ldc, const double *A, long lda,
                     const double *B, long ldb, long n) {
  if (n <= BASE) {
    for (long i = 0; i < n; i++)
      for (long j = 0; j < n; j++)
        C[i * ldc + j] = 0;
    for (long i = 0; i < n; i++)
      for (long p = 0; p < n; p++) {
        double a = A[i * lda + p];
        for (long j = 0; j < n; j++)
          C[i * ldc + j] += a * B[p * ldb + j];
      }
    return;
  }
  long h = n / 2, hh = h * h;
  const double *A11 = A, *A12 = A + h, *A21 = A + h * lda, *A22 = A21 + h;
  const double *B11 = B, *B12 = B + h, *B21 = B + h * ldb, *B22 = B21 + h;
  /* Per product: M, S, T. */
  double *buf = bench_alloc("strassen", (size_t)(21 * hh) * sizeof *buf);
  double *M[7];
  for (int i = 0; i < 7; i++)
    M[i] = buf + 3 * i * hh;
#define SCRATCH(i) M[i] + hh, M[i] + 2 * hh
  ws_spawn_void(product, M[0], A11, A22, 1, lda, B11, B22, 1, ldb, h, SCRATCH(0));
  ws_spawn_void(product, M[1], A21, A22, 1, lda, B11, NULL, 0, ldb, h, SCRATCH(1));
  ws_spawn_void(product, M[2], A11, NULL, 0, lda, B12, B22, -1, ldb, h, SCRATCH(2));
  ws_spawn_void(product, M[3], A22, NULL, 0, lda, B21, B11, -1, ldb, h, SCRATCH(3));
  ws_spawn_void(product, M[4], A11, A12, 1, lda, B22, NULL, 0, ldb, h, SCRATCH(4));
  ws_spawn_void(product, M[5], A21, A11, -1, lda, B11, B12, 1, ldb, h, SCRATCH(5));
  product(M[6], A12, A22, -1, lda, B21, B22, 1, ldb, h, SCRATCH(6));
#undef SCRATCH
  ws_sync();
  for (long i = 0; i < h; i++)
    for (long j = 0; j < h; j++) {
      long k = i * h + j;
      double m1 = M[0][k], m2 = M[1][k], m3 = M[2][k], m4 = M[3][k],
             m5 = M[4][k], m6 = M[5][k], m7 = M[6][k];
      C[i * ldc + j] = m1 + m4 - m5 + m7;
      C[i * ldc + j + h] = m3 + m5;
      C[(i + h) * ldc + j] = m2 + m4;
      C[(i + h) * ldc + j + h] = m1 - m2 + m3 + m6;
    }
  free(buf);
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 2048, 4096, 1, 16384}};
  long n;
  bench_args(argc, argv, params, 1, &n);
  if (n & (n - 1)) {
    fprintf(stderr, "%s: n = %ld is not a power of two\n", argv[0], n);
    bench_usage(argv[0], params, 1);
    return 2;
  }

  /* Every level mallocs its temporaries.  Keep freed blocks for reuse
   * instead of returning them to the kernel, or the run times page faults;
   * paper 000 §8.1 links jemalloc for the same reason. */
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);

  double *A = matmul_random(n, 1), *B = matmul_random(n, 2);
  double *C = matmul_zeros(n);
  bench_clock t0 = bench_start();
  strassen(C, n, A, n, B, n, n);
  bench_clock t = bench_stop(t0);

  printf("strassen(%ld)\n", n);
  if (!matmul_check(A, B, C, n))
    bench_fail("strassen", "C != A B (Freivalds check)");
  bench_time(t);
  free(A);
  free(B);
  free(C);
  return 0;
}
