/*
 * qmatmul_kernel.h — the serial parts of qmatmul, shared with the peers so
 * that the three compare schedulers, not kernels: the input (n, a power of
 * two), the 32 x 32 base case, the matrices, and an exact Freivalds check.
 */
#ifndef QMATMUL_KERNEL_H
#define QMATMUL_KERNEL_H

#include "../common/bench.h"

/* Blocks of this order or smaller are multiplied in place. */
#define QMATMUL_BASE 32L

static const bench_param qmatmul_params[] = {{"n", 2048, 2048, 1, 16384}};

/* n from argv; exits 2 with the usage line unless it is a power of two. */
static inline long qmatmul_args(int argc, char **argv) {
  long n;
  bench_args(argc, argv, qmatmul_params, 1, &n);
  if (n & (n - 1)) {
    fprintf(stderr, "%s: n = %ld is not a power of two\n", argv[0], n);
    bench_usage(argv[0], qmatmul_params, 1);
    exit(2);
  }
  return n;
}

/* C[m x m] += A[m x m] * B[m x m], row-major with leading dimension ld, for
 * a constant m: its loops have known trip counts. */
#define QMATMUL_BLOCK(m)                                                       \
  for (long i = 0; i < (m); i++)                                               \
    for (long k = 0; k < (m); k++) {                                           \
      int a = A[i * ld + k];                                                   \
      for (long j = 0; j < (m); j++)                                           \
        C[i * ld + j] += a * B[k * ld + j];                                    \
    }

/* C[n x n] += A[n x n] * B[n x n] for n <= QMATMUL_BASE.  Every block of a
 * matrix of 32 or more is 32 x 32 and takes the constant-size loops, which
 * the compiler unrolls alike wherever it compiles them; never inlined, so
 * that the recursion around it cannot change its code either: every clang
 * build runs the same kernel, and the runtimes differ only in scheduling. */
__attribute__((noinline)) static void qmatmul_base(int *restrict C,
                                                   const int *restrict A,
                                                   const int *restrict B,
                                                   long n, long ld) {
  if (n == QMATMUL_BASE) {
    QMATMUL_BLOCK(QMATMUL_BASE)
  } else {
    QMATMUL_BLOCK(n)
  }
}

/* Entries in -8..8, so that no entry of the product overflows an int
 * (|c| <= 64 n <= 2^20) and the check below is exact. */
static inline int *qmatmul_random(long n, unsigned long long seed) {
  int *M = (int *)bench_alloc("qmatmul", (size_t)(n * n) * sizeof *M);
  for (long i = 0; i < n * n; i++)
    M[i] = (int)(bench_rand(&seed) % 17) - 8;
  return M;
}

static inline int *qmatmul_zeros(long n) {
  int *M = (int *)bench_alloc("qmatmul", (size_t)(n * n) * sizeof *M);
  memset(M, 0, (size_t)(n * n) * sizeof *M);
  return M;
}

/* y = M x, M of ints and x, y of 64-bit integers. */
static inline void qmatmul_vec(const int *M, const long long *x, long long *y,
                               long n) {
  for (long i = 0; i < n; i++) {
    long long s = 0;
    for (long j = 0; j < n; j++)
      s += M[i * n + j] * x[j];
    y[i] = s;
  }
}

/* 1 when C x = A (B x) exactly for a random x with entries below 2^20: no
 * sum exceeds 2^54, and a wrong row of C passes with probability at most
 * 2^-20. */
static inline int qmatmul_check(const int *A, const int *B, const int *C,
                                long n) {
  long long *x = (long long *)bench_alloc("qmatmul", (size_t)n * 4 * sizeof *x);
  long long *bx = x + n, *abx = x + 2 * n, *cx = x + 3 * n;
  unsigned long long seed = 7;
  for (long i = 0; i < n; i++)
    x[i] = (long long)(bench_rand(&seed) >> 44);
  qmatmul_vec(B, x, bx, n);
  qmatmul_vec(A, bx, abx, n);
  qmatmul_vec(C, x, cx, n);
  int ok = 1;
  for (long i = 0; i < n && ok; i++)
    ok = cx[i] == abx[i];
  free(x);
  return ok;
}

#endif
