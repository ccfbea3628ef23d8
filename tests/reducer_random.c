/*
 * reducer_random — random spawn trees against their serial walk.  Each
 * node of a tree drawn from a seed updates an ordered reducer before,
 * between and after its children, which it spawns or calls; syncs in the
 * middle; calls and spawns of a spawning function that touches no reducer
 * (whose syncs the compiler leaves unmarked) between the updates.  The
 * reducer is a hash of the sequence of updates (h, B^len), exact modulo
 * 2^64 and not commutative, so any update out of serial order, lost or
 * repeated, changes it.
 *
 * usage: reducer_random [seeds] [nodes]     (default 60 seeds, 3000 nodes)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

#define BASE 0x100000001b3ull /* odd: multiplication is invertible mod 2^64 */

typedef struct seq {
  uint64_t h, p; /* hash of the sequence, BASE^length */
} seq;
static void seq_identity(void *v) { *(seq *)v = (seq){0, 1}; }
static void seq_reduce(void *l, void *r) {
  seq *a = l, *b = r;
  a->h = a->h * b->p + b->h;
  a->p *= b->p;
}
static const ws_monoid seq_monoid = {sizeof(seq), _Alignof(seq), seq_identity,
                                     seq_reduce, NULL, 0};

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* A spawning function that reaches no reducer. */
static long pfib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, pfib, n - 1);
  b = pfib(n - 2);
  ws_sync();
  return a + b;
}

typedef struct tree {
  uint64_t seed;
  long budget; /* nodes left to draw: the tree's size */
  ws_reducer order, count;
  seq serial; /* the serial walk's result */
  long serial_count;
  _Atomic long bad_pfib;
} tree;

static void put(tree *t, uint64_t token) {
  seq *v = ws_reducer_view(&t->order);
  v->h = v->h * BASE + token;
  v->p *= BASE;
  ws_reducer_sum_long(&t->count, 1);
}

static void put_serial(tree *t, uint64_t token) {
  t->serial.h = t->serial.h * BASE + token;
  t->serial.p *= BASE;
  t->serial_count++;
}

/* The node's shape: everything from r, the node's own random word.  The
 * budget is drawn in serial order in both walks (the parallel walk draws
 * children's budgets before spawning them). */
#define WALK(name, PUT, SPAWN_WALK, CALL_PFIB, SPAWN_PFIB, SYNC)               \
  static void name(tree *t, uint64_t node, long budget) {                      \
    uint64_t r = mix(t->seed ^ mix(node));                                     \
    PUT(t, node * 131 + 1);                                                    \
    if (budget <= 1) {                                                         \
      if (r & 1)                                                               \
        CALL_PFIB(4 + (long)(r >> 1) % 4);                                     \
      PUT(t, node * 131 + 2);                                                  \
      return;                                                                  \
    }                                                                          \
    int k = 1 + (int)(r % 4);                                                  \
    long left = budget - 1, pf[4] = {0, 0, 0, 0};                              \
    for (int i = 0; i < k; i++) {                                              \
      long share = i + 1 < k ? left / (k - i) + (long)((r >> (20 + i)) & 3) : left; \
      if (share > left)                                                        \
        share = left;                                                          \
      left -= share;                                                           \
      uint64_t child = node * 4 + (uint64_t)i + 1;                             \
      if (share > 0) {                                                         \
        if ((r >> (3 + i)) & 1)                                                \
          SPAWN_WALK(name, t, child, share);                                   \
        else                                                                   \
          name(t, child, share);                                               \
      }                                                                        \
      PUT(t, node * 131 + 10 + (uint64_t)i);                                   \
      if ((r >> (8 + i)) & 1) {                                                \
        SYNC();                                                                \
        PUT(t, node * 131 + 20 + (uint64_t)i);                                 \
      }                                                                        \
      if ((r >> (12 + i)) & 1)                                                 \
        CALL_PFIB(3 + i);                                                      \
      if ((r >> (16 + i)) & 1)                                                 \
        SPAWN_PFIB(pf[i], 5 + i);                                              \
      PUT(t, node * 131 + 30 + (uint64_t)i);                                   \
    }                                                                          \
    SYNC();                                                                    \
    for (int i = 0; i < k; i++)                                                \
      if (((r >> (16 + i)) & 1) && pf[i] != pfib_serial(5 + i))                \
        t->bad_pfib++;                                                         \
    PUT(t, node * 131 + 99);                                                   \
  }

static long pfib_serial(long n) { return n < 2 ? n : pfib_serial(n - 1) + pfib_serial(n - 2); }

#define PAR_SPAWN_WALK(f, ...) ws_spawn_void(f, __VA_ARGS__)
#define PAR_CALL_PFIB(n)                                                       \
  do {                                                                         \
    if (pfib(n) != pfib_serial(n))                                             \
      t->bad_pfib++;                                                           \
  } while (0)
#define PAR_SPAWN_PFIB(res, n) ws_spawn(res, pfib, n)
WALK(walk, put, PAR_SPAWN_WALK, PAR_CALL_PFIB, PAR_SPAWN_PFIB, ws_sync)

#define SER_SPAWN_WALK(f, ...) f(__VA_ARGS__)
#define SER_CALL_PFIB(n) ((void)0)
#define SER_SPAWN_PFIB(res, n) ((res) = pfib_serial(n))
#define SER_SYNC() ((void)0)
WALK(walk_serial, put_serial, SER_SPAWN_WALK, SER_CALL_PFIB, SER_SPAWN_PFIB, SER_SYNC)

int main(int argc, char **argv) {
  long seeds = argc > 1 ? atol(argv[1]) : 60, nodes = argc > 2 ? atol(argv[2]) : 3000;
  long failures = 0;
  for (long s = 1; s <= seeds; s++) {
    tree t = {.seed = mix((uint64_t)s), .serial = {0, 1}};
    seq got = {0, 1};
    long count = 0;
    ws_reducer_register(&t.order, &seq_monoid, &got);
    ws_reducer_register(&t.count, &ws_monoid_sum_long, &count);
    put(&t, 7);
    walk(&t, 0, nodes);
    put(&t, 8);
    ws_reducer_unregister(&t.order);
    ws_reducer_unregister(&t.count);
    put_serial(&t, 7);
    walk_serial(&t, 0, nodes);
    put_serial(&t, 8);
    if (got.h != t.serial.h || got.p != t.serial.p || count != t.serial_count ||
        t.bad_pfib) {
      printf("seed %ld: FAILED (%ld updates, want %ld)\n", s, count, t.serial_count);
      failures++;
    }
  }
  printf("seeds=%ld nodes=%ld %s\n", seeds, nodes, failures ? "FAIL" : "ok");
  return failures != 0;
}
