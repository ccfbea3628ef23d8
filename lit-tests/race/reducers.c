// A C reducer whose views own heap memory is race-free (issue 34, item 1):
// a list view that grows by realloc as its strand appends, a monoid whose
// reduce frees the right view's array and whose destroy frees a view's.
// They run unchecked, and the blocks they free must still forget their
// accesses: tasks that allocate afterwards receive them.
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s --implicit-check-not=ws-race
// RUN: %t.O2 2>&1 | FileCheck %s --implicit-check-not=ws-race
// CHECK: reducers list=ok blocks=ok

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ws/ws.h>

typedef struct list {
  long *items;
  long n, cap;
} list;

static void list_identity(void *v) { memset(v, 0, sizeof(list)); }
static void list_push(list *l, long x) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 4;
    l->items = realloc(l->items, (size_t)l->cap * sizeof *l->items);
  }
  l->items[l->n++] = x;
}
static void list_reduce(void *left, void *right) {
  list *l = left, *r = right;
  for (long i = 0; i < r->n; i++)
    list_push(l, r->items[i]);
  free(r->items);
  r->items = NULL;
  r->n = r->cap = 0;
}
static void list_destroy(void *v) { free(((list *)v)->items); }
static const ws_monoid list_monoid = {sizeof(list), _Alignof(list), list_identity,
                                      list_reduce, list_destroy, 0};

static void append_piece(long lo, long hi, void *ctx) {
  list *v = ws_reducer_view(ctx);
  for (long i = lo; i < hi; i++)
    for (long k = 0; k < 8; k++)
      list_push(v, 8 * i + k);
}

static void use_blocks(long lo, long hi, void *ctx) {
  long *total = ws_reducer_view(ctx);
  for (long i = lo; i < hi; i++) {
    size_t n = 4 + (size_t)(i % 61);
    long *p = malloc(n * sizeof *p);
    for (size_t k = 0; k < n; k++)
      p[k] = (long)k;
    *total += p[n - 1];
    free(p);
  }
}

int main(void) {
  const long n = 4000;
  list all = {0};
  ws_reducer r;
  ws_reducer_register(&r, &list_monoid, &all);
  ws_for(0, n, 1, append_piece, &r);
  ws_reducer_unregister(&r);
  int list_ok = all.n == 8 * n;
  for (long i = 0; list_ok && i < 8 * n; i++)
    list_ok = all.items[i] == i;
  long total = 0, want = 0;
  ws_reducer s;
  ws_reducer_register(&s, &ws_monoid_sum_long, &total);
  ws_for(0, n, 1, use_blocks, &s);
  ws_reducer_unregister(&s);
  for (long i = 0; i < n; i++)
    want += 3 + i % 61;
  printf("reducers list=%s blocks=%s\n", list_ok ? "ok" : "bad", total == want ? "ok" : "bad");
  free(all.items);
  return 0;
}
