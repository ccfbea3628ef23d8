/* Worksharing loops: every schedule, the four iteration types, negative
 * steps, nowait, collapse, sections, and reductions (+, *, min, max, &&,
 * ||, ^, a declared one) with the atomic and the critical method. */
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct pair {
  long lo, hi;
} pair;
#pragma omp declare reduction(span : pair : omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo, omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi) initializer(omp_priv = (pair){LONG_MAX, LONG_MIN})

static int *hits;
static int bad;

static void check(const char *what, int n, int times) {
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    wrong += hits[i] != times;
    hits[i] = 0;
  }
  if (wrong) {
    printf("%s: %d iterations wrong\n", what, wrong);
    bad = 1;
  }
}

#define PRAGMA(x) _Pragma(#x)
#define ALL(n, ...)                                                            \
  PRAGMA(omp parallel for __VA_ARGS__) for (int i = 0; i < (n); i++) {         \
    PRAGMA(omp atomic) hits[i]++;                                              \
  }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10007;
  hits = calloc((size_t)n + 64, sizeof *hits);
  ALL(n, schedule(static)) check("static", n, 1);
  ALL(n, schedule(static, 7)) check("static,7", n, 1);
  ALL(n, schedule(dynamic)) check("dynamic", n, 1);
  ALL(n, schedule(dynamic, 13)) check("dynamic,13", n, 1);
  ALL(n, schedule(guided)) check("guided", n, 1);
  ALL(n, schedule(guided, 5)) check("guided,5", n, 1);
  ALL(n, schedule(runtime)) check("runtime", n, 1);
  ALL(n, schedule(auto)) check("auto", n, 1);
  ALL(n, schedule(monotonic: dynamic, 3)) check("monotonic dynamic", n, 1);
  ALL(n, schedule(nonmonotonic: guided)) check("nonmonotonic guided", n, 1);
  ALL(3, schedule(static)) check("fewer iterations than threads", 3, 1);
  ALL(0, schedule(dynamic)) check("no iteration", 1, 0);
  omp_set_schedule(omp_sched_dynamic, 4);
  ALL(n, schedule(runtime)) check("runtime dynamic,4", n, 1);
  omp_set_schedule(omp_sched_guided, 0);
  ALL(n, schedule(runtime)) check("runtime guided", n, 1);

  /* the other iteration types, down and by steps */
#pragma omp parallel for schedule(dynamic, 3)
  for (unsigned u = (unsigned)n; u > 0; u--) {
#pragma omp atomic
    hits[u - 1]++;
  }
  check("unsigned down", n, 1);
#pragma omp parallel for schedule(guided)
  for (long long k = 0; k < 3LL * n; k += 3) {
#pragma omp atomic
    hits[k / 3]++;
  }
  check("long long by 3", n, 1);
#pragma omp parallel for schedule(static, 5)
  for (unsigned long long k = 2ULL * (unsigned)n; k > 0; k -= 2) {
#pragma omp atomic
    hits[k / 2 - 1]++;
  }
  check("unsigned long long down by 2", n, 1);
#pragma omp parallel for collapse(2) schedule(dynamic, 7)
  for (int i = 0; i < 97; i++)
    for (int j = 0; j < 101; j++) {
#pragma omp atomic
      hits[i * 101 + j]++;
    }
  check("collapse(2)", 97 * 101 < n ? 97 * 101 : n, 1);

  /* several loops in one region, nowait, and sections */
#pragma omp parallel
  {
    for (int k = 0; k < 20; k++) {
#pragma omp for schedule(dynamic, 2) nowait
      for (int i = 0; i < 200; i++) {
#pragma omp atomic
        hits[i]++;
      }
    }
#pragma omp barrier
#pragma omp sections
    {
#pragma omp section
      {
#pragma omp atomic
        hits[300]++;
      }
#pragma omp section
      {
#pragma omp atomic
        hits[301]++;
      }
#pragma omp section
      {
#pragma omp atomic
        hits[302]++;
      }
    }
  }
  check("20 nowait loops", 200, 20);
  for (int i = 300; i < 303; i++)
    bad |= hits[i] != 1, hits[i] = 0;

  long sum = 0, prod = 1, mn = LONG_MAX, mx = LONG_MIN, x = 0;
  int all = 1, any = 0;
  double dsum = 0;
  pair sp = {LONG_MAX, LONG_MIN};
#pragma omp parallel for reduction(+ : sum, dsum) reduction(* : prod) reduction(min : mn) \
    reduction(max : mx) reduction(&& : all) reduction(|| : any) reduction(^ : x) \
    reduction(span : sp) schedule(guided, 3)
  for (int i = 1; i <= n; i++) {
    sum += i;
    dsum += 0.5;
    if (i % 1000 == 0)
      prod *= 2;
    mn = i < mn ? i : mn;
    mx = i > mx ? i : mx;
    all = all && i > 0;
    any = any || i == 77;
    x ^= i;
    sp.lo = i < sp.lo ? i : sp.lo;
    sp.hi = i > sp.hi ? i : sp.hi;
  }
  long xs = 0;
  for (int i = 1; i <= n; i++)
    xs ^= i;
  printf("every schedule ran every iteration once: %s\n", bad ? "NO" : "yes");
  printf("reductions: sum %ld, half sum %.1f, product %ld, min %ld, max %ld, and %d, or %d, "
         "xor %s, span %ld..%ld\n",
         sum, dsum, prod, mn, mx, all, any, x == xs ? "right" : "WRONG", sp.lo, sp.hi);
  return bad;
}
