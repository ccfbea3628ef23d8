/*
 * graph.h — undirected graphs in compressed sparse rows, the three input
 * families of Michael, Vechev, Saraswat (PPoPP'09) as used in paper 000
 * §8.2, and the serial reference the parallel results are checked against.
 */
#ifndef WS_GRAPHS_GRAPH_H
#define WS_GRAPHS_GRAPH_H

#include <stdint.h>

typedef struct graph {
  int n;
  int64_t *off; /* neighbours of v: adj[off[v] .. off[v+1]) */
  int *adj;
} graph;

/* K-regular: a circulant graph on n vertices with K/2 random distinct
 * offsets d, v joined to v+d and v-d (mod n).  K even. */
graph graph_kregular(int n, int k, uint64_t seed);
/* n vertices, m edges with uniformly random ends (self-loops dropped). */
graph graph_random(int n, long m, uint64_t seed);
/* side x side two-dimensional torus (4-regular grid with wrap-around). */
graph graph_torus(int side);
void graph_free(graph *g);

/* Serial BFS from root: reach[v] = 1 when v is reachable.  Returns how many
 * are. */
long graph_reach(const graph *g, int root, unsigned char *reach);

#endif
