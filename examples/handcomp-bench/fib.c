/*
 * fib.c — Fibonacci lowered by hand onto one deque variant's own entry
 * points, __ws_push_<V>/__ws_take_<V> (compile with -DWS_BENCH_VARIANT=V
 * -DWS_BENCH_VARIANT_ID=WS_VARIANT_<V>), as ws-clang -fws-fencefree=V
 * would lower it, so no dispatch through the generic entry points blurs
 * the comparison.  Prints "fib(N) = F time_s=T", T for the computation
 * alone (not the runtime's start-up and shutdown).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <ws/abi.h>

#define WS_CAT2(a, b) a##b
#define WS_CAT(a, b) WS_CAT2(a, b)
#define PUSH WS_CAT(__ws_push_, WS_BENCH_VARIANT)
#define TAKE WS_CAT(__ws_take_, WS_BENCH_VARIANT)

/* The record ws-clang would emit: it makes the runtime use this variant
 * (and refuse a different WS_DEQUE).  x = 1: every take of the runtime
 * makes one store of its own before the next take can start. */
__attribute__((used, section(WS_RECORD_SECTION), aligned(8)))
static const ws_module_record bench_record = {
    WS_RECORD_MAGIC, WS_RECORD_VERSION, 1, 256, 128, WS_BENCH_VARIANT_ID,
    "examples/handcomp-bench/fib.c"};

typedef struct fib_task {
  ws_task hdr;
  long n;
  long result;
} fib_task;

static long fib(long n);

static void fib_run(ws_task *t) {
  fib_task *d = (fib_task *)t;
  d->result = fib(d->n);
}

static long fib(long n) {
  if (n < 2)
    return n;
  ws_worker *w = __ws_self();
  fib_task d = {{fib_run, 0}, n - 1, 0};
  PUSH(w, &d.hdr);
  long b = fib(n - 2);
  long a;
  if (!((uintptr_t)TAKE(w) & WS_TAKE_STOLEN)) {
    a = fib(d.n);
  } else {
    __ws_join_stolen(w, &d.hdr);
    a = d.result;
  }
  return a + b;
}

int main(int argc, char **argv) {
  long n = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
  if (n < 1 || n > 60) {
    fprintf(stderr, "usage: %s N (1..60)\n", argv[0]);
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long f = fib(n);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("fib(%ld) = %ld time_s=%.6f\n", n, f,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
  return 0;
}
