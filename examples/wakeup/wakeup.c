/*
 * wakeup — how long an idle worker takes to start work that appears after
 * an idle gap (issue 26).  Each round: the main thread computes alone for
 * `gap` microseconds (the other workers find nothing, spin, then sleep),
 * in serial code before it calls the spawning function, or with `inside`
 * 1 in the spawning function itself (no entry point between: as a worker
 * computing alone in a parallel phase), then spawns a probe task and
 * computes 200 us itself before it syncs.  A
 * thief that wakes in time steals the probe and notes when it started:
 * the latency is that moment less the spawn's.  A thief that sleeps
 * through the 200 us leaves the probe to the main thread at its sync: a
 * miss, the parallelism of that round lost.
 *
 * Prints, for the gap: the median and the 90th percentile latency of the
 * probes stolen, and how many rounds missed; checks that every probe ran
 * once.  `time:` is the whole run, `cpu:` the CPU the process used in it:
 * with the gaps' time mostly idle, cpu - wall is what the idle workers
 * burnt (polling for work).
 *
 * With `inside` 2, the other side of waking thieves: `rounds` calls, from
 * serial code, of a small spawning function (one one-line task each), with
 * 200 stores of serial work between them (the gap is not used).  A thief
 * kept awake there steals tasks smaller than its steal, and the caller
 * waits for them at its syncs: compare the time with one worker's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <ws/ws.h>

#include "../common/bench.h"

static const bench_param params[] = {
    {"gap_us", 2000, 2000, 0, 10000000},
    {"rounds", 40, 40, 1, 100000000},
    {"inside", 0, 0, 0, 2},
};

enum { OWN_US = 200 };

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

static void spin_us(double us) {
  double end = now_us() + us;
  while (now_us() < end)
    ;
}

typedef struct probe {
  double started;
  int worker;
  int runs;
} probe;

static void run_probe(probe *p) {
  p->started = now_us();
  p->worker = ws_worker_id();
  p->runs++;
  spin_us(OWN_US / 4);
}

/* One round: a spawn the other workers may take, after the gap, which
 * `inside` spends in this spawning function (a worker computing alone in
 * a parallel phase), else the caller spends in serial code. */
static void round_of(long gap, int inside, probe *p, double *spawned) {
  if (inside)
    spin_us((double)gap);
  *spawned = now_us();
  ws_spawn_void(run_probe, p);
  spin_us(OWN_US);
  ws_sync();
}

static long leaf(long x) { return x + 1; }

static long small_call(long x) {
  long a;
  ws_spawn(a, leaf, x);
  long b = leaf(x);
  ws_sync();
  return a + b;
}

static volatile long sink;

/* inside 2: many small calls; every task must have run once. */
static int small_calls(long calls) {
  long sum = 0;
  bench_clock t0 = bench_start();
  for (long i = 0; i < calls; i++) {
    sum += small_call(i);
    for (int k = 0; k < 200; k++)
      sink = k;
  }
  bench_clock t = bench_stop(t0);
  long expected = calls * (calls - 1) + 2 * calls; /* sum of 2i + 2 */
  printf("wakeup: %ld small calls, %d workers: sum %s\n", calls,
         ws_num_workers(), sum == expected ? "ok" : "WRONG");
  bench_time(t);
  return sum != expected;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  long v[3];
  bench_args(argc, argv, params, 3, v);
  long gap = v[0], rounds = v[1];
  int inside = (int)v[2];
  if (inside == 2)
    return small_calls(rounds);
  double *lat = malloc((size_t)rounds * sizeof *lat);
  if (!lat)
    return 1;
  int stolen = 0;
  bench_clock t0 = bench_start();
  for (long r = 0; r < rounds; r++) {
    probe p = {0, -2, 0};
    double spawned;
    if (!inside)
      spin_us((double)gap);
    round_of(gap, inside, &p, &spawned);
    if (p.runs != 1) {
      printf("wakeup: probe %ld ran %d times\n", r, p.runs);
      return 1;
    }
    if (p.worker != ws_worker_id())
      lat[stolen++] = p.started - spawned;
  }
  bench_clock t = bench_stop(t0);
  qsort(lat, (size_t)stolen, sizeof *lat, cmp);
  printf("wakeup: gap %ld us %s, %d workers: %d of %ld probes stolen", gap,
         inside ? "inside" : "before the call", ws_num_workers(), stolen, rounds);
  if (stolen)
    printf(", latency median %.1f us, p90 %.1f us", lat[stolen / 2],
           lat[(stolen * 9) / 10]);
  printf(", %ld missed\n", rounds - stolen);
  free(lat);
  bench_time(t);
  return 0;
}
