/*
 * qmatmul — C += A B on ints by quadrants, n a power of two, down to
 * 32 x 32 blocks: at each level the eight quadrant products run in two
 * phases of four spawned tasks, each phase writing the four quadrants of C
 * once (C11 += A11 B11, C12 += A11 B12, C21 += A21 B11, C22 += A21 B12;
 * sync; then the same with A12, A22 and B21, B22; sync).  The shape of the
 * matmul of tzcnt/runtime-benchmarks (after mtmucha/coros): coarse tasks
 * and a sync every four spawns, where ../matmul splits one dimension at a
 * time, so idle workers wait at every phase boundary.
 */
#include <ws/ws.h>

#include "qmatmul_kernel.h"

static void qmatmul(int *C, const int *A, const int *B, long n, long ld) {
  if (n <= QMATMUL_BASE) {
    qmatmul_base(C, A, B, n, ld);
    return;
  }
  long h = n / 2, down = h * ld; /* the quadrants: +h right, +down below */
  ws_spawn_void(qmatmul, C, A, B, h, ld);
  ws_spawn_void(qmatmul, C + h, A, B + h, h, ld);
  ws_spawn_void(qmatmul, C + down, A + down, B, h, ld);
  ws_spawn_void(qmatmul, C + down + h, A + down, B + h, h, ld);
  ws_sync();
  ws_spawn_void(qmatmul, C, A + h, B + down, h, ld);
  ws_spawn_void(qmatmul, C + h, A + h, B + down + h, h, ld);
  ws_spawn_void(qmatmul, C + down, A + down + h, B + down, h, ld);
  ws_spawn_void(qmatmul, C + down + h, A + down + h, B + down + h, h, ld);
  ws_sync();
}

int main(int argc, char **argv) {
  long n = qmatmul_args(argc, argv);

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
