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
 * (and refuse a different WS_DEQUE).  x = 1: every fence-free take of the
 * runtime makes one store of its own before the next take can start. */
__attribute__((used, section(WS_RECORD_SECTION), aligned(8)))
static const ws_module_record bench_record = {
    WS_RECORD_MAGIC, WS_RECORD_VERSION, 1, 256, 128, WS_BENCH_VARIANT_ID, 0,
    WS_ABI_VERSION, "examples/handcomp-bench/fib.c"};

static long fib(ws_slot *tail, long n);

static void fib_run(ws_slot *self, ws_slot *tail) {
  long *payload = (long *)self->payload;
  payload[0] = fib(tail, payload[0]);
}

static long fib(ws_slot *tail, long n) {
  if (n < 2)
    return n;
  tail->run = fib_run;
  *(long *)tail->payload = n - 1;
  PUSH(tail);
  long b = fib(tail + 1, n - 2);
  long a;
  if (!TAKE(tail)) {
    a = fib(tail, n - 1);
  } else {
    __ws_join(tail);
    a = *(long *)tail->payload;
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
  long f = fib(__ws_tail(), n);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("fib(%ld) = %ld time_s=%.6f\n", n, f,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
  return 0;
}
