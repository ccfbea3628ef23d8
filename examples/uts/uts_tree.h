/*
 * uts_tree.h — the trees of the Unbalanced Tree Search benchmark (Olivier
 * et al., "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006), as Lace
 * runs them (paper 003 §4.1: T2L geometric, T3L binomial).
 *
 * A node is a 20-byte SHA-1 state; child i of a node has the state
 * SHA-1(state || i as 4 big-endian bytes), the root SHA-1(16 zero bytes ||
 * seed).  The last 4 bytes of a state, as a 31-bit number, draw the node's
 * number of children: binomial trees give a non-root node m children with
 * probability q (the root has b0), geometric trees draw from a geometric
 * distribution whose mean b_i follows a shape function of the depth.  The
 * published sizes below check the whole construction: one wrong bit and the
 * tree is another tree.  Shared by ../uts.c and the peers.
 */
#ifndef UTS_TREE_H
#define UTS_TREE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "sha1.h"

enum uts_type { UTS_BIN, UTS_GEO };
/* Geometric shape functions, numbered as UTS's -a option. */
enum uts_shape { UTS_LINEAR = 0, UTS_EXPDEC = 1, UTS_CYCLIC = 2, UTS_FIXED = 3 };

#define UTS_MAX_CHILDREN 100 /* a non-root node's children are capped here */

typedef struct uts_tree {
  const char *name;
  enum uts_type type;
  enum uts_shape shape; /* geometric only */
  double b0;            /* root branching factor */
  int gen_mx;           /* geometric: depth parameter (-d) */
  double q;             /* binomial: probability of m children (-q) */
  int m;                /* binomial: children of a non-leaf (-m) */
  int seed;             /* root seed (-r) */
  long nodes, leaves, depth; /* the tree's statistics, for verification */
} uts_tree;

/* T1..T3L: the sample trees published with UTS (sample_trees.sh).  tiny-*:
 * small trees for the tests, statistics from this implementation once it
 * reproduced every published tree. */
static const uts_tree uts_trees[] = {
    {"T1", UTS_GEO, UTS_FIXED, 4, 10, 0, 0, 19, 4130071, 3305118, 10},
    {"T5", UTS_GEO, UTS_LINEAR, 4, 20, 0, 0, 34, 4147582, 2181318, 20},
    {"T2", UTS_GEO, UTS_CYCLIC, 6, 16, 0, 0, 502, 4117769, 2342762, 81},
    {"T3", UTS_BIN, UTS_LINEAR, 2000, 0, 0.124875, 8, 42, 4112897, 3599034, 1572},
    {"T1L", UTS_GEO, UTS_FIXED, 4, 13, 0, 0, 29, 102181082, 81746377, 13},
    {"T2L", UTS_GEO, UTS_CYCLIC, 7, 23, 0, 0, 220, 96793510, 53791152, 67},
    {"T3L", UTS_BIN, UTS_LINEAR, 2000, 0, 0.200014, 5, 7, 111345631, 89076904, 17844},
    {"tiny-geo", UTS_GEO, UTS_CYCLIC, 4, 12, 0, 0, 7, 71984, 40645, 61},
    {"tiny-bin", UTS_BIN, UTS_LINEAR, 100, 0, 0.124875, 8, 3, 58301, 51025, 208},
};
#define UTS_NTREES (int)(sizeof uts_trees / sizeof uts_trees[0])

typedef struct uts_node {
  unsigned char state[SHA1_DIGEST];
  int height;
} uts_node;

typedef struct uts_count {
  long nodes, leaves, depth;
} uts_count;

static inline void uts_root(const uts_tree *t, uts_node *root) {
  unsigned char msg[20] = {0};
  msg[16] = (unsigned char)(t->seed >> 24);
  msg[17] = (unsigned char)(t->seed >> 16);
  msg[18] = (unsigned char)(t->seed >> 8);
  msg[19] = (unsigned char)t->seed;
  sha1_short(msg, sizeof msg, root->state);
  root->height = 0;
}

static inline void uts_child(const uts_node *parent, int i, uts_node *child) {
  unsigned char msg[SHA1_DIGEST + 4];
  memcpy(msg, parent->state, SHA1_DIGEST);
  msg[20] = (unsigned char)(i >> 24);
  msg[21] = (unsigned char)(i >> 16);
  msg[22] = (unsigned char)(i >> 8);
  msg[23] = (unsigned char)i;
  sha1_short(msg, sizeof msg, child->state);
  child->height = parent->height + 1;
}

/* Uniform in [0, 1) from the state's last four bytes. */
static inline double uts_uniform(const uts_node *n) {
  unsigned long r = (unsigned long)n->state[16] << 24 |
                    (unsigned long)n->state[17] << 16 |
                    (unsigned long)n->state[18] << 8 | n->state[19];
  return (double)(r & 0x7fffffffUL) / 2147483648.0;
}

static inline int uts_geo_children(const uts_tree *t, const uts_node *n) {
  double b = t->b0;
  double depth = n->height;
  if (n->height > 0) {
    switch (t->shape) {
    case UTS_EXPDEC:
      b = t->b0 * pow(depth, -log(t->b0) / log((double)t->gen_mx));
      break;
    case UTS_CYCLIC:
      b = n->height > 5 * t->gen_mx
              ? 0.0
              : pow(t->b0, sin(2.0 * 3.141592653589793 * depth / t->gen_mx));
      break;
    case UTS_FIXED:
      b = n->height < t->gen_mx ? t->b0 : 0.0;
      break;
    case UTS_LINEAR:
      b = t->b0 * (1.0 - depth / t->gen_mx);
      break;
    }
  }
  /* Inverse of the geometric distribution's CDF with mean b. */
  double p = 1.0 / (1.0 + b);
  int k = (int)floor(log(1.0 - uts_uniform(n)) / log(1.0 - p));
  return k > UTS_MAX_CHILDREN ? UTS_MAX_CHILDREN : k;
}

static inline int uts_num_children(const uts_tree *t, const uts_node *n) {
  if (t->type == UTS_GEO)
    return uts_geo_children(t, n);
  if (n->height == 0)
    return (int)floor(t->b0);
  return uts_uniform(n) < t->q ? t->m : 0;
}

/* The count of a node with k children, before its subtrees are added. */
static inline uts_count uts_count_node(const uts_node *n, int k) {
  uts_count c = {1, k == 0, n->height};
  return c;
}

static inline void uts_merge(uts_count *into, uts_count sub) {
  into->nodes += sub.nodes;
  into->leaves += sub.leaves;
  if (sub.depth > into->depth)
    into->depth = sub.depth;
}

/* The tree named on the command line (default T2), or usage and exit 2. */
static inline const uts_tree *uts_args(int argc, char **argv) {
  const char *name = argc > 1 ? argv[1] : "T2";
  if (argc <= 2)
    for (int i = 0; i < UTS_NTREES; i++)
      if (strcmp(uts_trees[i].name, name) == 0)
        return &uts_trees[i];
  if (argc > 2)
    fprintf(stderr, "%s: too many arguments\n", argv[0]);
  else
    fprintf(stderr, "%s: unknown tree '%s'\n", argv[0], name);
  fprintf(stderr, "usage: %s [TREE]\n  TREE: one of", argv[0]);
  for (int i = 0; i < UTS_NTREES; i++)
    fprintf(stderr, " %s", uts_trees[i].name);
  fprintf(stderr, " (default T2; the papers' T2L and T3L)\n");
  exit(2);
}

/* Deep trees (T3L: depth 17844) recurse deeper than the main thread's 8 MiB
 * stack holds.  The main stack grows on demand up to the soft limit, and
 * the kernel leaves at least 128 MiB below it at exec, so raise the limit
 * in place. */
static inline void uts_grow_stack(void) {
  struct rlimit r;
  const rlim_t want = (rlim_t)120 << 20;
  if (getrlimit(RLIMIT_STACK, &r) == 0 && r.rlim_cur != RLIM_INFINITY &&
      r.rlim_cur < want) {
    r.rlim_cur = r.rlim_max == RLIM_INFINITY || r.rlim_max > want ? want
                                                                  : r.rlim_max;
    setrlimit(RLIMIT_STACK, &r);
  }
}

/* Checks the count against the tree's statistics; exits 1 on a mismatch. */
static inline void uts_verify(const char *prog, const uts_tree *t, uts_count c) {
  printf("uts %s: nodes=%ld leaves=%ld depth=%ld\n", t->name, c.nodes,
         c.leaves, c.depth);
  if (!sha1_selftest()) {
    fprintf(stderr, "%s: FAILED: SHA-1 does not match the FIPS test vector\n", prog);
    exit(1);
  }
  if (c.nodes != t->nodes || c.leaves != t->leaves || c.depth != t->depth) {
    fprintf(stderr,
            "%s: FAILED: tree %s: expected nodes=%ld leaves=%ld depth=%ld\n",
            prog, t->name, t->nodes, t->leaves, t->depth);
    exit(1);
  }
}

#endif
