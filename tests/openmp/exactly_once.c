/* Every task runs exactly once, under contention: every thread of the
 * team creates tasks (some of which create more) while the others steal;
 * each task counts its own run.  Rounds of regions, and a taskloop. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define PER 2000

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 30;
  int maxt = omp_get_max_threads();
  long ntasks = (long)maxt * PER * 2;
  int *runs = calloc((size_t)ntasks, sizeof *runs);
  long wrong = 0, total = 0;
  for (int r = 0; r < rounds; r++) {
#pragma omp parallel
    {
      int me = omp_get_thread_num();
      for (int i = 0; i < PER; i++) {
        long id = ((long)me * PER + i) * 2;
#pragma omp task firstprivate(id)
        {
#pragma omp atomic
          runs[id]++;
          if (id % 4 == 0) {
#pragma omp task firstprivate(id)
            {
#pragma omp atomic
              runs[id + 1]++;
            }
          }
        }
        if (i % 64 == 0) {
#pragma omp taskyield
        }
      }
      if (me % 2) {
#pragma omp taskwait
      }
    }
    int nt = 0;
#pragma omp parallel
#pragma omp single
    nt = omp_get_num_threads();
    for (long id = 0; id < (long)nt * PER * 2; id++) {
      int expect = id % 2 == 0 || (id - 1) % 4 == 0;
      wrong += runs[id] != expect;
      total += runs[id];
      runs[id] = 0;
    }
    total -= (long)nt * PER * 3 / 2;
  }
  long hits = 0;
  int *once = calloc(100000, sizeof *once);
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(1)
  for (int i = 0; i < 100000; i++) {
#pragma omp atomic
    once[i]++;
  }
  for (int i = 0; i < 100000; i++)
    hits += once[i] == 1;
  printf("%d rounds: %ld tasks ran other than once, count off by %ld\n", rounds, wrong, total);
  printf("taskloop grainsize(1): %ld of 100000 ran once\n", hits);
  return wrong || total || hits != 100000;
}
