/*
 * reducer_order — a non-commutative reducer (string append): every update
 * lands in serial order whatever the steals, in a spawn tree with updates
 * before, between and after its spawns, a loop of spawns, parallel loops
 * (automatic and explicit grain) and nested parallel loops.  Two ordered
 * reducers and a commutative one are updated side by side.  The expected
 * strings come from a plain serial walk of the same shapes.
 *
 * usage: reducer_order [leaves]     (default 20000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ws/ws.h>

typedef struct str {
  char *s;
  size_t len, cap;
} str;

static void str_add(str *a, const char *p, size_t n) {
  if (a->len + n + 1 > a->cap) {
    a->cap = (a->len + n + 1) * 2;
    a->s = realloc(a->s, a->cap);
    if (!a->s)
      abort();
  }
  memcpy(a->s + a->len, p, n);
  a->len += n;
  a->s[a->len] = 0;
}
static void str_identity(void *v) { memset(v, 0, sizeof(str)); }
static void str_reduce(void *l, void *r) {
  str *b = r;
  if (b->len)
    str_add(l, b->s, b->len);
}
static void str_destroy(void *v) { free(((str *)v)->s); }
static const ws_monoid str_append = {sizeof(str), _Alignof(str), str_identity,
                                     str_reduce, str_destroy, 0};

/* Every update goes to the ordered reducers `a` (the text) and `b` (the
 * numbers only) and counts in the commutative `n`; `serial` is the
 * expected text, written by the serial walks. */
typedef struct out {
  ws_reducer a, b, n;
} out;

static void put(out *o, str *serial, const char *tag, long x) {
  char buf[40];
  int k = snprintf(buf, sizeof buf, "%s%ld ", tag, x);
  if (serial) {
    str_add(serial, buf, (size_t)k);
    return;
  }
  str_add(ws_reducer_view(&o->a), buf, (size_t)k);
  k = snprintf(buf, sizeof buf, "%ld,", x);
  str_add(ws_reducer_view(&o->b), buf, (size_t)k);
  ws_reducer_sum_long(&o->n, 1);
}

static void tree(out *o, long lo, long hi) {
  if (hi - lo == 1) {
    put(o, NULL, "L", lo);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  put(o, NULL, "(", lo);
  ws_spawn_void(tree, o, lo, mid);
  put(o, NULL, "|", mid);
  tree(o, mid, hi);
  ws_sync();
  put(o, NULL, ")", hi);
}

static void tree_serial(str *s, long lo, long hi) {
  if (hi - lo == 1) {
    put(NULL, s, "L", lo);
    return;
  }
  long mid = lo + (hi - lo) / 2;
  put(NULL, s, "(", lo);
  tree_serial(s, lo, mid);
  put(NULL, s, "|", mid);
  tree_serial(s, mid, hi);
  put(NULL, s, ")", hi);
}

static void leaf(out *o, long i) { put(o, NULL, "s", i); }

static void spawn_loop(out *o, long n) {
  for (long i = 0; i < n; i++) {
    ws_spawn_void(leaf, o, i);
    put(o, NULL, "c", i);
  }
  ws_sync();
  put(o, NULL, "end", n);
}

static void loop_body(long lo, long hi, void *ctx) {
  for (long i = lo; i < hi; i++)
    put(ctx, NULL, "i", i);
}

typedef struct nest {
  out *o;
  long m, inner_grain;
} nest;

static void inner_body(long lo, long hi, void *ctx) {
  for (long k = lo; k < hi; k++)
    put(((nest *)ctx)->o, NULL, "j", k);
}

static void outer_body(long lo, long hi, void *ctx) {
  nest *c = ctx;
  for (long i = lo; i < hi; i++) {
    put(c->o, NULL, "o", i);
    ws_for(i * c->m, (i + 1) * c->m, c->inner_grain, inner_body, c);
  }
}

/* The text's numbers, which `b` must hold. */
static void numbers_of(const str *text, str *nums) {
  const char *p = text->s;
  while (p && *p) {
    while (*p && (*p < '0' || *p > '9'))
      p++;
    const char *q = p;
    while (*q >= '0' && *q <= '9')
      q++;
    if (q > p) {
      str_add(nums, p, (size_t)(q - p));
      str_add(nums, ",", 1);
    }
    p = *q ? q + 1 : q;
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000, m = 120;
  str a = {0}, b = {0}, want = {0}, want_b = {0};
  long count = 0;
  out o;
  ws_reducer_register(&o.a, &str_append, &a);
  ws_reducer_register(&o.b, &str_append, &b);
  ws_reducer_register(&o.n, &ws_monoid_sum_long, &count);

  put(&o, NULL, "start", 0);
  put(NULL, &want, "start", 0);
  tree(&o, 0, n);
  tree_serial(&want, 0, n);
  spawn_loop(&o, n / 10);
  for (long i = 0; i < n / 10; i++) {
    put(NULL, &want, "s", i);
    put(NULL, &want, "c", i);
  }
  put(NULL, &want, "end", n / 10);
  long grains[] = {0, 1, 3, 1000};
  for (int g = 0; g < 4; g++) {
    ws_for(0, n, grains[g], loop_body, &o);
    for (long i = 0; i < n; i++)
      put(NULL, &want, "i", i);
  }
  for (int g = 0; g < 2; g++) {
    nest c = {&o, m, g ? 1 : 0};
    ws_for(0, m, g ? 7 : 0, outer_body, &c);
    for (long i = 0; i < m; i++) {
      put(NULL, &want, "o", i);
      for (long k = i * m; k < (i + 1) * m; k++)
        put(NULL, &want, "j", k);
    }
  }
  ws_sync();
  ws_reducer_unregister(&o.a);
  ws_reducer_unregister(&o.b);
  ws_reducer_unregister(&o.n);

  numbers_of(&want, &want_b);
  long words = 0;
  for (size_t i = 0; i < want.len; i++)
    words += want.s[i] == ' ';
  int ok_a = a.len == want.len && memcmp(a.s, want.s, a.len) == 0;
  int ok_b = b.len == want_b.len && memcmp(b.s, want_b.s, b.len) == 0;
  int ok = ok_a && ok_b && count == words;
  printf("updates=%ld text=%s numbers=%s count=%s %s\n", words,
         ok_a ? "ok" : "FAILED", ok_b ? "ok" : "FAILED",
         count == words ? "ok" : "FAILED", ok ? "ok" : "FAIL");
  if (!ok_a) {
    size_t i = 0;
    while (i < a.len && i < want.len && a.s[i] == want.s[i])
      i++;
    printf("first difference at %zu: got \"%.40s\", want \"%.40s\"\n", i,
           a.s ? a.s + i : "", want.s + i);
  }
  free(a.s);
  free(b.s);
  free(want.s);
  free(want_b.s);
  return ok ? 0 : 1;
}
