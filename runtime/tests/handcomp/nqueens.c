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

/* A task's inputs, in its slot: the board of rows 0..j-1 (22 bytes). */
typedef struct nq_args {
  int n, j;         /* board size; rows placed */
  char board[MAXN]; /* column of the queen in each placed row */
} nq_args;

static long nqueens(ws_slot *tail, int n, int j, const char *board);

/* The thunk copies the board out of its slot first: it is read while the
 * task runs, and the result goes where it lay. */
static void nq_run(ws_slot *self, ws_slot *tail) {
  nq_args a = *(nq_args *)self->payload;
  *(long *)self->payload = nqueens(tail, a.n, a.j, a.board);
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

static long nqueens(ws_slot *entry, int n, int j, const char *board) {
  if (j == n)
    return 1;
  ws_slot *tail = entry;
  for (int col = 0; col < n; col++) {
    nq_args *a = (nq_args *)tail->payload;
    memcpy(a->board, board, (size_t)j);
    a->board[j] = (char)col;
    if (!safe(j + 1, a->board))
      continue;
    a->n = n;
    a->j = j + 1;
    tail->run = nq_run;
    __ws_push(tail);
    tail++;
  }
  long count = 0;
  while (tail != entry) { /* the sync: newest spawn first */
    ws_slot *t = --tail;
    /* The inputs leave the slot before the task runs in our frame: its
     * own spawns reuse the slot. */
    nq_args a = *(nq_args *)t->payload;
    if (!__ws_take(t)) {
      count += nqueens(t, a.n, a.j, a.board);
    } else {
      __ws_join(t);
      count += *(long *)t->payload;
    }
  }
  return count;
}

int main(int argc, char **argv) {
  static const long solutions[MAXN + 1] = {1,  1,   0,   0,    2,    10,    4,    40,
                                           92, 352, 724, 2680, 14200, 73712, 365596};
  int n = (int)hc_arg(argc, argv, 1, 1, MAXN, "N (1..14)");
  char what[32];
  snprintf(what, sizeof what, "nqueens(%d)", n);
  return hc_report(what, nqueens(__ws_tail(), n, 0, ""), solutions[n]);
}
