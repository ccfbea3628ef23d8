/*
 * fib_serial.c — the serial elision of fib.c: the spawn is a plain call,
 * the sync nothing.  T_serial of the overhead figures.  Same output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long a = fib(n - 1);
  long b = fib(n - 2);
  return a + b;
}

int main(int argc, char **argv) {
  long n = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
  if (n < 1 || n > 60) {
    fprintf(stderr, "usage: %s N (1..60)\n", argv[0]);
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long f = fib(n);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("fib(%ld) = %ld time_s=%.6f\n", n, f,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
  return 0;
}
