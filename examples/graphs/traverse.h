/*
 * traverse.h — transitive closure and spanning tree of a graph on a task
 * pool, in the style of Bader & Cong (JPDC 2005) as benchmarked by Michael,
 * Vechev, Saraswat (PPoPP'09) and paper 000 §8.2.  A task is "visit u".
 */
#ifndef WS_GRAPHS_TRAVERSE_H
#define WS_GRAPHS_TRAVERSE_H

#include <stdatomic.h>

#include "graph.h"
#include "ws/pool.h"

typedef enum { ALGO_TC, ALGO_ST } algo;

typedef struct run_result {
  double seconds;  /* from the start signal to the last worker's end */
  long tasks;      /* visits, duplicates included */
  ws_pool_stats stats;
} run_result;

/* mark[v] = 1 for every vertex reached from root; for ALGO_ST parent[v] is
 * v's parent in the tree (parent[root] = root). */
run_result traverse(const graph *g, algo a, const char *variant, int threads,
                    int root, _Atomic unsigned char *mark, int *parent);

/* NULL when mark is exactly the reachable set (and, for ALGO_ST, parent is a
 * spanning tree of it rooted at root); else what is wrong. */
const char *verify(const graph *g, algo a, int root, const unsigned char *reach,
                   _Atomic unsigned char *mark, const int *parent);

#endif
