/* The omp_* queries, inside and outside regions, in tasks, in nested
 * (serialized) regions and parallel if(0).  Printed so that the output is
 * the same for any team size; the run's OMP_NUM_THREADS is the team. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = omp_get_max_threads();
  int env = getenv("OMP_NUM_THREADS") ? atoi(getenv("OMP_NUM_THREADS")) : n;
  printf("outside: num_threads %d, thread %d, max == OMP_NUM_THREADS %d, in_parallel %d, "
         "level %d, active %d, in_final %d, team_size(0) %d, ancestor(0) %d\n",
         omp_get_num_threads(), omp_get_thread_num(), n == env, omp_in_parallel(),
         omp_get_level(), omp_get_active_level(), omp_in_final(), omp_get_team_size(0),
         omp_get_ancestor_thread_num(0));
  int threads_ok = 1, ids = 0, nested_ok = 1, task_ok = 1;
#pragma omp parallel
  {
    int t = omp_get_num_threads(), me = omp_get_thread_num();
#pragma omp critical
    {
      threads_ok &= t == n && me >= 0 && me < t && omp_get_level() == 1 &&
                    omp_get_team_size(1) == t && omp_get_ancestor_thread_num(1) == me &&
                    omp_get_ancestor_thread_num(0) == 0 && omp_in_parallel() == (t > 1) &&
                    omp_get_active_level() == (t > 1) && omp_get_max_threads() == n;
      ids |= 1 << (me < 30 ? me : 30);
    }
#pragma omp parallel
    {
      /* nested: serialized, one thread */
#pragma omp critical
      nested_ok &= omp_get_num_threads() == 1 && omp_get_thread_num() == 0 &&
                   omp_get_level() == 2 && omp_get_active_level() == (t > 1) &&
                   omp_get_ancestor_thread_num(1) == me && omp_get_team_size(2) == 1;
    }
#pragma omp single
    {
#pragma omp task
      {
        int ok = omp_get_num_threads() == t && omp_get_level() == 1 && !omp_in_final() &&
                 omp_get_thread_num() < t;
#pragma omp atomic
        task_ok &= ok;
      }
    }
  }
  printf("in a region: every query consistent %d, every thread number seen %d\n", threads_ok,
         ids == (n >= 31 ? -1 : (1 << n) - 1) || n >= 31);
  printf("nested region serialized %d, task queries %d\n", nested_ok, task_ok);
  int s1 = -1, s2 = -1;
#pragma omp parallel if(0)
  {
    s1 = omp_get_num_threads();
    s2 = omp_get_level();
  }
  printf("parallel if(0): num_threads %d, level %d, active %d\n", s1, s2, omp_get_active_level());
  int one = -1;
#pragma omp parallel num_threads(1)
  one = omp_get_num_threads() + 10 * omp_in_parallel();
  printf("num_threads(1): %d\n", one);
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  printf("default schedule %d, chunk %d\n", (int)kind, chunk);
  omp_set_schedule(omp_sched_guided, 7);
  omp_get_schedule(&kind, &chunk);
  printf("set schedule %d, chunk %d\n", (int)kind, chunk);
  double t0 = omp_get_wtime(), t1 = omp_get_wtime();
  printf("wtime monotonic %d, wtick positive %d, num_procs positive %d\n", t1 >= t0,
         omp_get_wtick() > 0, omp_get_num_procs() > 0);
  printf("dynamic %d, cancellation %d, max_active_levels %d, devices %d, initial %d\n",
         omp_get_dynamic(), omp_get_cancellation(), omp_get_max_active_levels(),
         omp_get_num_devices(), omp_is_initial_device());
  return 0;
}
