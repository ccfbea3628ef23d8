/* The number of solutions of the n-queens problem (OEIS A000170), n <= 18. */
#ifndef NQUEENS_SOLUTIONS_H
#define NQUEENS_SOLUTIONS_H

#define NQUEENS_MAX 18

static const long nqueens_solutions[NQUEENS_MAX + 1] = {
    1,     1,      0,       0,       2,        10,        4,
    40,    92,     352,     724,     2680,     14200,     73712,
    365596, 2279184, 14772512, 95815104, 666090624};

#endif
