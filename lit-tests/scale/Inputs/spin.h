/* spin.h — fixed work for the ws-scale tests: `iters` dependent
 * multiply-adds that the optimizer can neither fold nor vectorize, and
 * the expectations the checker reads ("analytic: <region> <parallelism>"). */
#ifndef SCALE_SPIN_H
#define SCALE_SPIN_H

#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) unsigned long spin(long iters) {
  unsigned long x = (unsigned long)iters;
  for (long i = 0; i < iters; i++) {
    x = x * 6364136223846793005UL + 1442695040888963407UL;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}

static void analytic(const char *region, double parallelism) {
  printf("analytic: %s %.4f\n", region, parallelism);
}

static long arg(int argc, char **argv, int i, long def) {
  return argc > i ? atol(argv[i]) : def;
}

#endif
