/* Constructs outside the runtime's subset: each stops the program with
 * one line naming it, exit status 2, when it runs (never an undefined
 * symbol, never a wrong answer).  cancel with cancellation off (the
 * default) is a no-op, as the specification has it. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  int x = 0, a[8] = {0};
  if (!strcmp(what, "depend")) {
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : x) shared(x)
      x = 1;
#pragma omp task depend(in : x) shared(x)
      x++;
    }
  } else if (!strcmp(what, "taskwait-depend")) {
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskwait depend(in : x)
    }
  } else if (!strcmp(what, "ordered")) {
#pragma omp parallel for ordered
    for (int i = 0; i < 8; i++) {
#pragma omp ordered
      x += i;
    }
  } else if (!strcmp(what, "doacross")) {
#pragma omp parallel for ordered(1)
    for (int i = 1; i < 8; i++) {
#pragma omp ordered depend(sink : i - 1)
      a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
    }
  } else if (!strcmp(what, "teams")) {
#pragma omp teams num_teams(2)
    x++;
  } else if (!strcmp(what, "detach")) {
    omp_event_handle_t ev = (omp_event_handle_t)0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task detach(ev)
      x++;
    }
  } else if (!strcmp(what, "cancel")) {
    int n = 0;
#pragma omp parallel reduction(+ : n)
    {
      n = 1;
#pragma omp cancel parallel if (x == 0)
#pragma omp cancellation point parallel
    }
    printf("cancel with cancellation off: every thread went on: %d\n",
           n == omp_get_max_threads());
    return 0;
  } else {
    fprintf(stderr, "usage: refuse depend|taskwait-depend|ordered|doacross|teams|detach|cancel\n");
    return 1;
  }
  printf("ran past %s: %d %d\n", what, x, a[7]);
  return 0;
}
