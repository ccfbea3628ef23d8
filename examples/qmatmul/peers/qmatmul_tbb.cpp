/*
 * qmatmul with oneTBB task_group: the same recursion and base case as
 * ../qmatmul.c, two phases of four tasks a level.  TBB_NUM_THREADS sets
 * the threads (see ../../common/tbb_threads.h).
 */
#include <tbb/task_group.h>

#define restrict __restrict
#include "../qmatmul_kernel.h"
#include "../../common/tbb_threads.h"

static void qmatmul(int *C, const int *A, const int *B, long n, long ld) {
  if (n <= QMATMUL_BASE) {
    qmatmul_base(C, A, B, n, ld);
    return;
  }
  long h = n / 2, down = h * ld;
  tbb::task_group g;
  g.run([=] { qmatmul(C, A, B, h, ld); });
  g.run([=] { qmatmul(C + h, A, B + h, h, ld); });
  g.run([=] { qmatmul(C + down, A + down, B, h, ld); });
  g.run([=] { qmatmul(C + down + h, A + down, B + h, h, ld); });
  g.wait();
  g.run([=] { qmatmul(C, A + h, B + down, h, ld); });
  g.run([=] { qmatmul(C + h, A + h, B + down + h, h, ld); });
  g.run([=] { qmatmul(C + down, A + down + h, B + down, h, ld); });
  g.run([=] { qmatmul(C + down + h, A + down + h, B + down + h, h, ld); });
  g.wait();
}

int main(int argc, char **argv) {
  long n = qmatmul_args(argc, argv);
  tbb_threads limit;

  int *A = qmatmul_random(n, 1), *B = qmatmul_random(n, 2);
  int *C = qmatmul_zeros(n);
  bench_clock t0 = bench_start();
  qmatmul(C, A, B, n, n);
  bench_clock t = bench_stop(t0);

  printf("qmatmul(%ld)\n", n);
  if (!qmatmul_check(A, B, C, n))
    bench_fail("qmatmul", "C != A B (exact Freivalds check)");
  bench_time(t);
  free(A);
  free(B);
  free(C);
  return 0;
}
