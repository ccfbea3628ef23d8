/* graph.c — generating the inputs into CSR, and the serial BFS. */
#include <stdio.h>
#include <stdlib.h>

#include "graph.h"

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "ws-graphs: out of memory (%zu bytes)\n", n);
    exit(2);
  }
  return p;
}

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* CSR from an edge list, both directions. */
static graph from_edges(int n, long m, const int *u, const int *v) {
  graph g = {n, xmalloc(sizeof(int64_t) * ((size_t)n + 1)),
             xmalloc(sizeof(int) * 2 * (size_t)m)};
  for (int i = 0; i <= n; i++)
    g.off[i] = 0;
  for (long e = 0; e < m; e++) {
    g.off[u[e] + 1]++;
    g.off[v[e] + 1]++;
  }
  for (int i = 0; i < n; i++)
    g.off[i + 1] += g.off[i];
  int64_t *fill = xmalloc(sizeof(int64_t) * (size_t)n);
  for (int i = 0; i < n; i++)
    fill[i] = g.off[i];
  for (long e = 0; e < m; e++) {
    g.adj[fill[u[e]]++] = v[e];
    g.adj[fill[v[e]]++] = u[e];
  }
  free(fill);
  return g;
}

graph graph_kregular(int n, int k, uint64_t seed) {
  int half = k / 2;
  int *d = xmalloc(sizeof(int) * (size_t)half);
  for (int i = 0; i < half; i++) { /* distinct offsets in [1, n/2) */
    int fresh;
    do {
      d[i] = 1 + (int)(splitmix64(&seed) % (uint64_t)(n / 2 - 1));
      fresh = 1;
      for (int j = 0; j < i; j++)
        fresh &= d[j] != d[i];
    } while (!fresh);
  }
  long m = (long)n * half;
  int *u = xmalloc(sizeof(int) * (size_t)m), *v = xmalloc(sizeof(int) * (size_t)m);
  for (long e = 0; e < m; e++) {
    u[e] = (int)(e / half);
    v[e] = (int)((u[e] + (long)d[e % half]) % n);
  }
  graph g = from_edges(n, m, u, v);
  free(u);
  free(v);
  free(d);
  return g;
}

graph graph_random(int n, long m, uint64_t seed) {
  int *u = xmalloc(sizeof(int) * (size_t)m), *v = xmalloc(sizeof(int) * (size_t)m);
  long kept = 0;
  for (long e = 0; e < m; e++) {
    u[kept] = (int)(splitmix64(&seed) % (uint64_t)n);
    v[kept] = (int)(splitmix64(&seed) % (uint64_t)n);
    kept += u[kept] != v[kept];
  }
  graph g = from_edges(n, kept, u, v);
  free(u);
  free(v);
  return g;
}

graph graph_torus(int side) {
  int n = side * side;
  long m = 2L * n;
  int *u = xmalloc(sizeof(int) * (size_t)m), *v = xmalloc(sizeof(int) * (size_t)m);
  for (int r = 0; r < side; r++)
    for (int c = 0; c < side; c++) {
      long e = 2L * (r * side + c);
      u[e] = u[e + 1] = r * side + c;
      v[e] = r * side + (c + 1) % side;     /* right */
      v[e + 1] = ((r + 1) % side) * side + c; /* down */
    }
  graph g = from_edges(n, m, u, v);
  free(u);
  free(v);
  return g;
}

void graph_free(graph *g) {
  free(g->off);
  free(g->adj);
}

long graph_reach(const graph *g, int root, unsigned char *reach) {
  int *queue = xmalloc(sizeof(int) * (size_t)g->n);
  for (int i = 0; i < g->n; i++)
    reach[i] = 0;
  long head = 0, tail = 0;
  reach[root] = 1;
  queue[tail++] = root;
  while (head < tail) {
    int x = queue[head++];
    for (int64_t e = g->off[x]; e < g->off[x + 1]; e++)
      if (!reach[g->adj[e]]) {
        reach[g->adj[e]] = 1;
        queue[tail++] = g->adj[e];
      }
  }
  free(queue);
  return tail;
}
