/* taskgroup waits for every task created in it and their descendants;
 * taskwait for the children; task_reduction / in_reduction. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long done;

static void grand(int depth) {
  if (depth == 0) {
#pragma omp atomic
    done++;
    return;
  }
  for (int i = 0; i < 3; i++) {
#pragma omp task firstprivate(depth)
    grand(depth - 1);
  }
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 20;
  long seen_after_group = 0, seen_total = 0, red = 0, red2 = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int r = 0; r < rounds; r++) {
#pragma omp taskgroup
      {
        grand(5); /* 243 leaves, nobody waits for them but the group */
      }
      long d;
#pragma omp atomic read
      d = done;
      seen_after_group += d == 243L * (r + 1);
    }
    /* a taskgroup inside a task, around a task that outlives a taskwait */
    long x = 0;
#pragma omp task shared(x)
    {
#pragma omp taskgroup
      {
#pragma omp task shared(x)
        {
#pragma omp task shared(x)
          {
#pragma omp atomic
            x += 2;
          }
        }
#pragma omp taskwait
      }
#pragma omp atomic
      x += 1;
    }
#pragma omp taskwait
    seen_total = x;
#pragma omp taskgroup task_reduction(+ : red)
    {
      for (int i = 1; i <= 1000; i++) {
#pragma omp task in_reduction(+ : red) firstprivate(i)
        red += i;
      }
      /* a task's children joining the same reduction */
#pragma omp task in_reduction(+ : red)
      {
        for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : red)
          red += 1;
        }
      }
    }
  }
  /* a reduction over a team's tasks */
#pragma omp parallel reduction(+ : red2)
  {
#pragma omp for nowait
    for (int i = 0; i < 100; i++)
      red2 += i;
  }
  printf("%d taskgroups finished every descendant: %ld\n", rounds, seen_after_group);
  printf("nested taskgroup in a task: %ld\n", seen_total);
  printf("task reduction: %ld, region reduction: %ld\n", red, red2);
  return seen_after_group != rounds || seen_total != 3 || red != 500510 || red2 != 4950;
}
