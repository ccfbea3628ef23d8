/*
 * knapsack — 0/1 knapsack by branch and bound (Cilk's knapsack, paper 000
 * Table 1: 32 items).  Items are sorted by value per unit of weight; a
 * branch whose fractional upper bound cannot beat the best value found so
 * far is cut, and the take/leave branches of an item run in parallel.  No
 * cut-off: a task is one node of the search.  Checked against dynamic
 * programming.
 */
#include <limits.h>
#include <stdatomic.h>
#include <ws/ws.h>

#include "../common/bench.h"

#define MAX_ITEMS 64

typedef struct item {
  int weight, value;
} item;

/* The best value found so far.  Relaxed: a stale value only prunes less. */
static atomic_int best_so_far;

static void improve(int v) {
  int b = atomic_load_explicit(&best_so_far, memory_order_relaxed);
  while (v > b && !atomic_compare_exchange_weak_explicit(
                      &best_so_far, &b, v, memory_order_relaxed,
                      memory_order_relaxed))
    ;
}

/* The best value reachable from items e[0..n) with capacity c, having
 * packed value v already; INT_MIN when over capacity or pruned. */
static int knapsack(const item *e, int c, int n, int v) {
  if (c < 0)
    return INT_MIN;
  if (n == 0 || c == 0)
    return v;
  double bound = v + (double)c * e->value / e->weight;
  if (bound < atomic_load_explicit(&best_so_far, memory_order_relaxed))
    return INT_MIN;
  int with, without;
  ws_spawn(with, knapsack, e + 1, c - e->weight, n - 1, v + e->value);
  without = knapsack(e + 1, c, n - 1, v);
  ws_sync();
  int best = with > without ? with : without;
  improve(best);
  return best;
}

static int by_ratio(const void *a, const void *b) {
  const item *x = a, *y = b;
  /* x before y when x->value / x->weight > y->value / y->weight */
  long l = (long)y->value * x->weight, r = (long)x->value * y->weight;
  return (l > r) - (l < r);
}

static int knapsack_dp(const item *e, int n, int capacity) {
  int *best = bench_alloc("knapsack", (size_t)(capacity + 1) * sizeof *best);
  for (int c = 0; c <= capacity; c++)
    best[c] = 0;
  for (int i = 0; i < n; i++)
    for (int c = capacity; c >= e[i].weight; c--)
      if (best[c - e[i].weight] + e[i].value > best[c])
        best[c] = best[c - e[i].weight] + e[i].value;
  int r = best[capacity];
  free(best);
  return r;
}

int main(int argc, char **argv) {
  static const bench_param params[] = {{"items", 32, 32, 1, MAX_ITEMS}};
  long n;
  bench_args(argc, argv, params, 1, &n);

  /* A subset-sum instance: value = weight, all weights even, an odd
   * capacity at 30% of the total weight.  No subset fills it, so the bound
   * (value + capacity left) never falls below the best and the search
   * visits every subset that fits: the same work, 2.5e8 nodes for 32 items,
   * whatever the schedule. */
  item e[MAX_ITEMS];
  unsigned long long seed = 2014;
  int total = 0;
  for (int i = 0; i < n; i++) {
    e[i].weight = 2 * (50 + (int)(bench_rand(&seed) % 50));
    e[i].value = e[i].weight;
    total += e[i].weight;
  }
  int capacity = total * 3 / 10 | 1;
  qsort(e, (size_t)n, sizeof e[0], by_ratio);

  bench_clock t0 = bench_start();
  int r = knapsack(e, capacity, (int)n, 0);
  bench_clock t = bench_stop(t0);

  int want = knapsack_dp(e, (int)n, capacity);
  printf("knapsack(%ld items, capacity %d) = %d\n", n, capacity, r);
  if (r != want)
    bench_fail("knapsack", "best value %d, expected %d", r, want);
  bench_time(t);
  return 0;
}
