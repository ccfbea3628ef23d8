/*
 * nqueens with OpenMP tasks: the same search as ../nqueens.c, one task per
 * safe column and no cut-off.
 */
#include <omp.h>

#include "../../common/bench.h"
#include "../nqueens_solutions.h"

static int safe(const signed char *board, int row, int col) {
  for (int i = 0; i < row; i++) {
    int d = board[i] - col;
    if (d == 0 || d == row - i || d == i - row)
      return 0;
  }
  return 1;
}

static long queens(int n, int row, const signed char *board) {
  if (row == n)
    return 1;
  signed char next[NQUEENS_MAX][NQUEENS_MAX];
  long count[NQUEENS_MAX];
  for (int col = 0; col < n; col++) {
    count[col] = 0;
    if (!safe(board, row, col))
      continue;
    memcpy(next[col], board, (size_t)row);
    next[col][row] = (signed char)col;
#pragma omp task shared(count, next) firstprivate(col)
    count[col] = queens(n, row + 1, next[col]);
  }
#pragma omp taskwait
  long total = 0;
  for (int col = 0; col < n; col++)
    total += count[col];
  return total;
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"n", 13, 15, 1, NQUEENS_MAX}};
  long n;
  bench_args(argc, argv, params, 1, &n);

  signed char board[NQUEENS_MAX];
  long r;
  bench_clock t0 = bench_start();
#pragma omp parallel
#pragma omp single
  r = queens((int)n, 0, board);
  bench_clock t = bench_stop(t0);

  printf("nqueens(%ld) = %ld\n", n, r);
  if (r != nqueens_solutions[n])
    bench_fail("nqueens", "nqueens(%ld) = %ld, expected %ld", n, r,
               nqueens_solutions[n]);
  bench_time(t);
  return 0;
}
