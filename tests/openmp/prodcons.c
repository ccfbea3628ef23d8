/* One producer, in a single, queues tasks in a loop and waits for none
 * of them: they finish at the single's barrier (and, after single nowait
 * or master, at the region's end or an explicit barrier). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long work(long i) {
  long x = i;
  for (int k = 0; k < 50; k++)
    x = (x * 1103515245 + 12345) % 1000003;
  return x;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000;
  long *a = calloc((size_t)n, sizeof *a), *b = calloc((size_t)n, sizeof *b),
       *c = calloc((size_t)n, sizeof *c);
  long sum_a = -1, expect = 0;
  for (long i = 0; i < n; i++)
    expect += work(i);
#pragma omp parallel
  {
#pragma omp single
    for (long i = 0; i < n; i++) {
#pragma omp task firstprivate(i)
      a[i] = work(i);
    }
    /* the single's barrier finished them all */
#pragma omp single
    {
      sum_a = 0;
      for (long i = 0; i < n; i++)
        sum_a += a[i];
    }
#pragma omp master
    for (long i = 0; i < n; i++) {
#pragma omp task firstprivate(i)
      b[i] = work(i + 1);
    }
#pragma omp barrier
#pragma omp single nowait
    for (long i = 0; i < n; i++) {
#pragma omp task firstprivate(i)
      c[i] = work(i + 2);
    }
    /* ... and the region's end finishes these */
  }
  long sum_b = 0, sum_c = 0;
  for (long i = 0; i < n; i++) {
    sum_b += b[i] == work(i + 1);
    sum_c += c[i] == work(i + 2);
  }
  printf("%ld tasks after single: sum %ld (%s)\n", n, sum_a, sum_a == expect ? "right" : "WRONG");
  printf("%ld tasks after master and a barrier: %ld right\n", n, sum_b);
  printf("%ld tasks after single nowait, at the region's end: %ld right\n", n, sum_c);
  return sum_a != expect || sum_b != n || sum_c != n;
}
