/*
 * tchain.c — where a fence-free spawn's time goes, without the runtime:
 * fib(n) three ways, each compiled without tail-recursion elimination
 * (-fno-optimize-sibling-calls) so that all make two calls per node:
 *
 *   plain   two calls, nothing else;
 *   mem     plus what a THEP spawn and take store and load (descriptor,
 *           slot, T up and down, H, the echo P, the take counter), with
 *           the owner's T read back from memory each time, as the runtime
 *           does: consecutive spawns form a chain of store-to-load forwards;
 *   reg     the same stores and loads of H, but the owner's T passed in a
 *           register, so nothing waits for a forwarded T.
 *
 *   tchain plain|mem|reg N      prints "<kind> fib(N) <seconds>"
 *
 * One thread, no thieves: the deque is only written.  docs/benchmarks.md
 * ("Why fib's T1/T_S is 4") reports the figures.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct task {
  void (*run)(struct task *);
  uintptr_t state;
  long n, res;
} task;

static struct {
  _Alignas(64) _Atomic int64_t T;
  _Alignas(64) _Atomic uint64_t H;
  _Alignas(64) _Atomic int64_t P;
  _Alignas(64) volatile uint64_t takes;
  task *slot[4096];
} q;

static void run(task *t) { (void)t; }

#define BARRIER() __asm__ volatile("" ::: "memory")

/* The take's check against H: a thief never runs here, so it never fires. */
static void check_h(int64_t t) {
  uint64_t h = atomic_load_explicit(&q.H, memory_order_relaxed);
  if ((int64_t)(uint32_t)h > t)
    abort();
  atomic_store_explicit(&q.P, (int64_t)(h >> 32), memory_order_relaxed);
  q.takes = q.takes + 1;
}

__attribute__((noinline)) static long fib_mem(long n) {
  if (n < 2)
    return n;
  task d = {run, 0, n - 1, 0};
  int64_t t = atomic_load_explicit(&q.T, memory_order_relaxed);
  q.slot[t & 4095] = &d;
  atomic_store_explicit(&q.T, t + 1, memory_order_release);
  BARRIER();
  long b = fib_mem(n - 2);
  t = atomic_load_explicit(&q.T, memory_order_relaxed) - 1;
  atomic_store_explicit(&q.T, t, memory_order_release);
  BARRIER();
  check_h(t);
  return fib_mem(*(volatile long *)&d.n) + b;
}

__attribute__((noinline)) static long fib_reg(long n, int64_t t) {
  if (n < 2)
    return n;
  task d = {run, 0, n - 1, 0};
  q.slot[t & 4095] = &d;
  atomic_store_explicit(&q.T, t + 1, memory_order_release);
  BARRIER();
  long b = fib_reg(n - 2, t + 1);
  atomic_store_explicit(&q.T, t, memory_order_release);
  BARRIER();
  check_h(t);
  return fib_reg(*(volatile long *)&d.n, t) + b;
}

__attribute__((noinline)) static long fib_plain(long n) {
  return n < 2 ? n : fib_plain(n - 1) + fib_plain(n - 2);
}

int main(int argc, char **argv) {
  long n = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
  if (n < 1 || n > 50 || (strcmp(argv[1], "plain") && strcmp(argv[1], "mem") &&
                          strcmp(argv[1], "reg"))) {
    fprintf(stderr, "usage: %s plain|mem|reg N (1..50)\n", argv[0]);
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long r = argv[1][0] == 'p' ? fib_plain(n) : argv[1][0] == 'm' ? fib_mem(n) : fib_reg(n, 0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%s fib(%ld)=%ld %.6f\n", argv[1], n, r,
         (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
  return 0;
}
