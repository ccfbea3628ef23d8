/* Untied tasks: their entry is called again at each task scheduling
 * point (part_id), around taskwait, taskyield and the children they
 * create. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) {
  if (n < 2)
    return n;
  long a, b;
#pragma omp task untied shared(a)
  a = fib(n - 1);
#pragma omp task untied shared(b)
  b = fib(n - 2);
#pragma omp taskyield
#pragma omp taskwait
  return a + b;
}

static long stages(int k) {
  long r = 0;
#pragma omp task untied shared(r) firstprivate(k)
  {
    long x = k;
#pragma omp task shared(x)
    x += 1;
#pragma omp taskwait
    x *= 2;
#pragma omp taskyield
    long parts[8];
    for (int i = 0; i < 8; i++) {
#pragma omp task untied shared(parts) firstprivate(i, x)
      parts[i] = x + i;
    }
#pragma omp taskwait
    for (int i = 0; i < 8; i++)
      r += parts[i];
  }
#pragma omp taskwait
  return r;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 18;
  long f = 0, s = 0;
#pragma omp parallel
#pragma omp single
  {
    f = fib(n);
    for (int k = 0; k < 100; k++) {
      long r = stages(k);
      s += r;
    }
  }
  /* an untied task in a serialized team: its parts run at once */
  long t = stages(7);
  printf("untied fib(%d) = %ld\nuntied stages: %ld, serialized: %ld\n", n, f, s, t);
  return 0;
}
