/* N queens (as BOTS's nqueens): a task per placement down to a depth,
 * if(0) tasks below it; each task works on a copy of the board. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 16

static int ok(int n, const char *a) {
  for (int i = 0; i < n; i++) {
    char p = a[i];
    for (int j = i + 1; j < n; j++) {
      char q = a[j];
      if (q == p || q == p - (j - i) || q == p + (j - i))
        return 0;
    }
  }
  return 1;
}

static long nqueens(int n, int j, const char *a, int depth, int cut) {
  if (n == j)
    return 1;
  long count[MAXN];
  for (int i = 0; i < n; i++) {
    count[i] = 0;
#pragma omp task firstprivate(i) shared(count) if(depth < cut)
    {
      char b[MAXN];
      memcpy(b, a, (size_t)j);
      b[j] = (char)i;
      if (ok(j + 1, b))
        count[i] = nqueens(n, j + 1, b, depth + 1, cut);
    }
  }
#pragma omp taskwait
  long total = 0;
  for (int i = 0; i < n; i++)
    total += count[i];
  return total;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 9;
  long total = 0;
  char a[MAXN];
#pragma omp parallel
#pragma omp single
  total = nqueens(n, 0, a, 0, 3);
  printf("%d queens: %ld solutions\n", n, total);
  static const long known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200};
  return n < 13 && total != known[n];
}
