/*
 * nqueens.c — N queens lowered by hand against ws/abi.h: one spawn per safe
 * column, all outstanding until the sync, which takes them back LIFO (the
 * Cilk benchmark's shape).
 *
 *   nqueens N    prints "nqueens(N) = S" and checks S against the known count
 */
#include <string.h>
#include <ws/abi.h>

#include "handcomp.h"

#define MAXN 14

typedef struct nq_task {
  ws_task hdr;
  int n, j;         /* board size; rows placed */
  char board[MAXN]; /* column of the queen in each placed row */
  long result;
} nq_task;

static long nqueens(int n, int j, const char *board);

static void nq_run(ws_task *t) {
  nq_task *d = (nq_task *)t;
  d->result = nqueens(d->n, d->j, d->board);
}

/* The queen of row j-1 attacks none of rows 0..j-2. */
static int safe(int j, const char *b) {
  for (int i = 0; i < j - 1; i++) {
    int d = b[j - 1] - b[i];
    if (d == 0 || d == j - 1 - i || d == i - (j - 1))
      return 0;
  }
  return 1;
}

static long nqueens(int n, int j, const char *board) {
  if (j == n)
    return 1;
  ws_worker *w = __ws_self();
  nq_task d[MAXN];
  int spawned = 0;
  for (int col = 0; col < n; col++) {
    nq_task *t = &d[spawned];
    memcpy(t->board, board, (size_t)j);
    t->board[j] = (char)col;
    if (!safe(j + 1, t->board))
      continue;
    t->hdr.run = nq_run;
    t->hdr.state = 0;
    t->n = n;
    t->j = j + 1;
    __ws_push(w, &t->hdr);
    spawned++;
  }
  long count = 0;
  while (spawned > 0) { /* the sync: newest spawn first */
    nq_task *t = &d[--spawned];
    if (!((uintptr_t)__ws_take(w) & WS_TAKE_STOLEN))
      t->result = nqueens(t->n, t->j, t->board);
    else
      __ws_join_stolen(w, &t->hdr);
    count += t->result;
  }
  return count;
}

int main(int argc, char **argv) {
  static const long solutions[MAXN + 1] = {1,  1,   0,   0,    2,    10,    4,    40,
                                           92, 352, 724, 2680, 14200, 73712, 365596};
  int n = (int)hc_arg(argc, argv, 1, 1, MAXN, "N (1..14)");
  char what[32];
  snprintf(what, sizeof what, "nqueens(%d)", n);
  return hc_report(what, nqueens(n, 0, ""), solutions[n]);
}
