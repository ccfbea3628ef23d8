/* fib with one task per call, with a cut-off (one task per call above
 * it, the continuation computing the other half), and outside any
 * parallel region (tasks of the initial task run at once). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

static long fib_task(int n) {
  if (n < 2)
    return n;
  long a, b;
#pragma omp task shared(a) firstprivate(n)
  a = fib_task(n - 1);
#pragma omp task shared(b) firstprivate(n)
  b = fib_task(n - 2);
#pragma omp taskwait
  return a + b;
}

static long fib_cut(int n, int cut) {
  if (n < cut)
    return fib_seq(n);
  long a, b;
#pragma omp task shared(a)
  a = fib_cut(n - 1, cut);
  b = fib_cut(n - 2, cut);
#pragma omp taskwait
  return a + b;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  long r1 = 0, r2 = 0, r3;
#pragma omp parallel
#pragma omp single
  {
    r1 = fib_task(n);
    r2 = fib_cut(n + 4, n - 6);
  }
  r3 = fib_task(n - 5);
  printf("fib(%d) one task per call = %ld\n", n, r1);
  printf("fib(%d) with a cut-off = %ld\n", n + 4, r2);
  printf("fib(%d) outside parallel = %ld\n", n - 5, r3);
  return !(r1 == fib_seq(n) && r2 == fib_seq(n + 4) && r3 == fib_seq(n - 5));
}
