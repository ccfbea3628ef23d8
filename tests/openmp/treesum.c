/* A tree of random shape (a fixed seed), summed with one task per node,
 * and counted by tasks that update a shared counter atomically. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct node {
  long value;
  int n;
  struct node *kid[4];
} node;

static unsigned long long seed = 12345;
static unsigned rnd(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(seed >> 33);
}

static node *build(int depth) {
  node *t = calloc(1, sizeof *t);
  t->value = rnd() % 1000;
  t->n = depth > 0 ? (int)(rnd() % 5) : 0;
  if (t->n > 4)
    t->n = 4;
  for (int i = 0; i < t->n; i++)
    t->kid[i] = build(depth - 1 - (int)(rnd() % 2));
  return t;
}

static long sum(node *t) {
  long s[4] = {0, 0, 0, 0};
  for (int i = 0; i < t->n; i++) {
#pragma omp task shared(s) firstprivate(i)
    s[i] = sum(t->kid[i]);
  }
#pragma omp taskwait
  return t->value + s[0] + s[1] + s[2] + s[3];
}

static long nodes;
static void count(node *t) {
#pragma omp atomic
  nodes++;
  for (int i = 0; i < t->n; i++) {
#pragma omp task firstprivate(i)
    count(t->kid[i]);
  }
}

static long sum_seq(node *t) {
  long s = t->value;
  for (int i = 0; i < t->n; i++)
    s += sum_seq(t->kid[i]);
  return s;
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 12;
  node *root = build(depth);
  long total = 0;
#pragma omp parallel
  {
#pragma omp single
    total = sum(root);
    /* count's tasks are not waited for: they finish at the barrier */
#pragma omp single
    count(root);
  }
  printf("tree of depth %d: %ld nodes, sum %ld\n", depth, nodes, total);
  return total != sum_seq(root);
}
