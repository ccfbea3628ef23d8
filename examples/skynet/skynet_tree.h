/*
 * skynet_tree.h — what skynet and its peers share: the input (the depth of
 * the tree) and the answer, leaf i returns i, so the root returns
 * 0 + 1 + ... + (10^depth - 1).
 */
#ifndef SKYNET_TREE_H
#define SKYNET_TREE_H

#include "../common/bench.h"

/* Depth 9 is the deepest whose sum fits in a long (4.99... x 10^17). */
static const bench_param skynet_params[] = {{"depth", 8, 8, 0, 9}};

/* The number of leaves, 10^depth. */
static inline long skynet_leaves(long depth) {
  long n = 1;
  for (long i = 0; i < depth; i++)
    n *= 10;
  return n;
}

/* Prints the result line; exits 1 when the sum is not the closed form. */
static inline void skynet_check(long depth, long sum) {
  long n = skynet_leaves(depth);
  long expected = n * (n - 1) / 2; /* 10^18 at depth 9: fits */
  printf("skynet(depth %ld) = %ld\n", depth, sum);
  if (sum != expected)
    bench_fail("skynet", "sum of %ld leaves = %ld, expected %ld", n, sum,
               expected);
}

#endif
