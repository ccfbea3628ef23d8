/* if(0), final and mergeable: an undeferred task runs before its creator
 * goes on; a task created in a final task is included (it runs at once,
 * and omp_in_final() is true in it); mergeable changes nothing visible. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long leaves_in_final;

static long tree(int d, int cut) {
  if (d == 0) {
    if (omp_in_final()) {
#pragma omp atomic
      leaves_in_final++;
    }
    return 1;
  }
  long a = 0, b = 0;
#pragma omp task shared(a) final(d <= cut) mergeable
  a = tree(d - 1, cut);
#pragma omp task shared(b) final(d <= cut)
  b = tree(d - 1, cut);
#pragma omp taskwait
  return a + b;
}

/* In a final task, a child task runs at once: x is set when it returns. */
static int included(void) {
  int seen = -1;
#pragma omp task final(1) shared(seen)
  {
    int x = 0;
#pragma omp task shared(x)
    x = 1;
    seen = x * 10 + omp_in_final();
  }
#pragma omp taskwait
  return seen;
}

int main(int argc, char **argv) {
  int d = argc > 1 ? atoi(argv[1]) : 14;
  long n = 0;
  int inc = 0, undeferred = 0, undeferred_final = -1;
#pragma omp parallel
#pragma omp single
  {
    n = tree(d, 4);
    inc = included();
    for (int i = 0; i < 100; i++) {
      int y = 0;
#pragma omp task if(0) shared(y) firstprivate(i)
      y = i + 1;
      undeferred += y == i + 1; /* the if(0) task has run */
    }
#pragma omp task if(0) final(1) shared(undeferred_final)
    undeferred_final = omp_in_final();
  }
  printf("tree(%d): %ld leaves, %ld of them in final tasks\n", d, n, leaves_in_final);
  printf("included child ran before its creator went on: %d\n", inc);
  printf("if(0) tasks done before the creator went on: %d of 100, final: %d\n", undeferred,
         undeferred_final);
  printf("outside: in_final %d\n", omp_in_final());
  return 0;
}
