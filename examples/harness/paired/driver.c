/*
 * driver.c — paired.py's program: REPS rounds, each timing skynet's and
 * fib's serial elision and lowered build back to back in one process, so
 * that both halves of a ratio see the same machine (a shared guest's
 * speed changes from second to second, and from process to process with
 * the code's placement).  Prints the percentiles of each time and of each
 * round's T1/T_S; exits 1 when a lowered build's answer is wrong.
 *
 *   driver REPS LEAVES FIB_N
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

long paired_skynet_ser(long, long), paired_skynet_par(long, long);
long paired_fib_ser(long), paired_fib_par(long);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void row(const char *name, double *v, int n, double scale) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", name, v[n / 20] * scale,
         v[n / 4] * scale, v[n / 2] * scale, v[3 * n / 4] * scale);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s REPS LEAVES FIB_N\n", argv[0]);
    return 2;
  }
  int reps = atoi(argv[1]);
  long leaves = atol(argv[2]), n = atol(argv[3]);
  if (reps < 1 || leaves < 1 || n < 0 || n > 60) {
    fprintf(stderr, "driver: REPS >= 1, LEAVES >= 1, 0 <= FIB_N <= 60\n");
    return 2;
  }
  double *v[6];
  for (int k = 0; k < 6; k++)
    if (!(v[k] = malloc((size_t)reps * sizeof *v[k])))
      return 2;
  for (int i = 0; i < reps; i++) {
    double t0 = now();
    long s0 = paired_skynet_ser(0, leaves);
    double t1 = now();
    long s1 = paired_skynet_par(0, leaves);
    double t2 = now();
    long f0 = paired_fib_ser(n);
    double t3 = now();
    long f1 = paired_fib_par(n);
    double t4 = now();
    if (s0 != s1 || f0 != f1) {
      fprintf(stderr, "driver: wrong answer (skynet %ld vs %ld, fib %ld vs %ld)\n",
              s1, s0, f1, f0);
      return 1;
    }
    v[0][i] = t1 - t0;
    v[1][i] = t2 - t1;
    v[2][i] = t3 - t2;
    v[3][i] = t4 - t3;
    v[4][i] = v[1][i] / v[0][i];
    v[5][i] = v[3][i] / v[2][i];
  }
  printf("| %d rounds | p5 | p25 | median | p75 |\n| --- | ---: | ---: | ---: | ---: |\n",
         reps);
  row("skynet T_S (ms)", v[0], reps, 1e3);
  row("skynet T1 (ms)", v[1], reps, 1e3);
  row("fib T_S (ms)", v[2], reps, 1e3);
  row("fib T1 (ms)", v[3], reps, 1e3);
  row("skynet T1/T_S", v[4], reps, 1);
  row("fib T1/T_S", v[5], reps, 1);
  return 0;
}
