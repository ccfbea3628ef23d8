/* critical (unnamed and named), omp locks (plain and nested), atomic
 * counters, master, masked, single with copyprivate, barriers. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static omp_nest_lock_t nl;
static long nested_total;

static void nested(int depth) {
  omp_set_nest_lock(&nl);
  nested_total++;
  if (depth > 0)
    nested(depth - 1);
  omp_unset_nest_lock(&nl);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 2000;
  long c1 = 0, c2 = 0, c3 = 0, a1 = 0, a2 = 0, captures = 0, masters = 0, maskeds = 0;
  long copy_ok = 0, phases_ok = 0, tests = 0;
  omp_lock_t l;
  omp_init_lock(&l);
  omp_init_nest_lock(&nl);
  int nthreads = 0;
#pragma omp parallel
  {
#pragma omp single
    nthreads = omp_get_num_threads();
    for (int r = 0; r < rounds; r++) {
#pragma omp critical
      c1++;
#pragma omp critical(other)
      c2 += 2;
      omp_set_lock(&l);
      c3++;
      omp_unset_lock(&l);
#pragma omp atomic
      a1++;
      long old;
#pragma omp atomic capture
      {
        old = a2;
        a2 += 3;
      }
      if (old % 3 == 0) {
#pragma omp atomic
        captures++;
      }
    }
    while (!omp_test_lock(&l))
      ;
    tests++;
    omp_unset_lock(&l);
    nested(3);
#pragma omp master
    masters++;
#pragma omp masked filter(0)
    maskeds++;
    /* phases: everyone writes its slot, a barrier, everyone reads all */
    static long slot[1024];
    for (int p = 0; p < 10; p++) {
      slot[omp_get_thread_num()] = p;
#pragma omp barrier
      int good = 1;
      for (int t = 0; t < omp_get_num_threads(); t++)
        good &= slot[t] == p;
#pragma omp atomic
      phases_ok += good;
#pragma omp barrier
    }
    int v = 0;
#pragma omp single copyprivate(v)
    v = 42;
#pragma omp atomic
    copy_ok += v == 42;
  }
  omp_destroy_lock(&l);
  omp_destroy_nest_lock(&nl);
  long t = nthreads;
  printf("critical %s, named %s, lock %s\n", c1 == rounds * t ? "right" : "WRONG",
         c2 == 2 * rounds * t ? "right" : "WRONG", c3 == rounds * t ? "right" : "WRONG");
  printf("atomic %s, capture %s\n", a1 == rounds * t && a2 == 3 * rounds * t ? "right" : "WRONG",
         captures == rounds * t ? "right" : "WRONG");
  printf("test_lock %s, nested lock %s\n", tests == t ? "right" : "WRONG",
         nested_total == 4 * t ? "right" : "WRONG");
  printf("master %ld, masked %ld\n", masters, maskeds);
  printf("barrier phases %s, copyprivate %s\n", phases_ok == 10 * t ? "right" : "WRONG",
         copy_ok == t ? "right" : "WRONG");
  return 0;
}
