/* taskloop: grainsize, num_tasks, the default split, reduction,
 * firstprivate and lastprivate, nogroup (with a taskwait), if(0),
 * collapse, and the strict modifier. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000;
  int *hits = calloc((size_t)n, sizeof *hits);
  long s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0;
  int last = -1, bad = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(64)
    for (int i = 0; i < n; i++) {
#pragma omp atomic
      hits[i]++;
    }
#pragma omp taskloop num_tasks(7) reduction(+ : s1)
    for (int i = 0; i < n; i++)
      s1 += i;
#pragma omp taskloop reduction(+ : s2)
    for (long i = n; i > 0; i -= 3)
      s2 += i;
    int base = 5;
#pragma omp taskloop grainsize(100) firstprivate(base) lastprivate(last)
    for (int i = 0; i < n; i++) {
      last = i + base;
#pragma omp atomic
      hits[i]++;
    }
#pragma omp taskloop nogroup grainsize(500)
    for (int i = 0; i < n; i++) {
#pragma omp atomic
      s3 += i;
    }
#pragma omp taskwait
#pragma omp taskloop if(0) reduction(+ : s4)
    for (int i = 0; i < 100; i++)
      s4 += i;
#pragma omp taskloop collapse(2) grainsize(strict : 7) reduction(+ : s5)
    for (int i = 0; i < 50; i++)
      for (int j = 0; j < 30; j++)
        s5 += i * j;
  }
  for (int i = 0; i < n; i++)
    bad += hits[i] != 2;
  long e1 = (long)n * (n - 1) / 2, e2 = 0;
  for (long i = n; i > 0; i -= 3)
    e2 += i;
  printf("taskloop: every iteration ran once: %s\n", bad ? "NO" : "yes");
  printf("num_tasks sum %ld (%s), default sum %ld (%s)\n", s1, s1 == e1 ? "right" : "WRONG", s2,
         s2 == e2 ? "right" : "WRONG");
  printf("lastprivate %d, nogroup sum %ld, if(0) sum %ld, collapse sum %ld\n", last, s3, s4, s5);
  return bad || s1 != e1 || s2 != e2 || last != n - 1 + 5 || s3 != e1 || s4 != 4950 ||
         s5 != 1225L * 435;
}
