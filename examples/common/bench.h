/*
 * bench.h — what every benchmark of the suite shares: its inputs on the
 * command line, a clock, and the lines the harness reads.
 *
 *   prog                 the default input (a serial run of 0.5-3 s here)
 *   prog --paper         the input the papers use (000 Table 1, 003 §4.1)
 *   prog V1 [V2 ...]     explicit values, in the order of the usage line
 *
 * A program prints one line with its input and result, then "time:
 * <seconds>" and "cpu: <seconds>" for the timed region only (no set-up, no
 * verification), and exits 0.  A wrong result prints "<prog>: FAILED: ..." and exits 1; bad
 * input prints the usage line and exits 2.  Plain C, also included by the
 * C++ peers.
 */
#ifndef WS_EXAMPLES_BENCH_H
#define WS_EXAMPLES_BENCH_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef WS_SCALE
#include <ws/scale.h>
#endif

typedef struct bench_param {
  const char *name; /* shown in the usage line */
  long def;         /* default input */
  long paper;       /* the papers' input */
  long min, max;    /* accepted range */
} bench_param;

static inline void bench_usage(const char *prog, const bench_param *p, int n) {
  fprintf(stderr, "usage: %s [--paper |", prog);
  for (int i = 0; i < n; i++)
    fprintf(stderr, " %s", p[i].name);
  fprintf(stderr, "]\n");
  for (int i = 0; i < n; i++)
    fprintf(stderr, "  %-10s %ld..%ld (default %ld, paper %ld)\n", p[i].name,
            p[i].min, p[i].max, p[i].def, p[i].paper);
}

/* Fills val[0..n) from argv; exits 2 with the usage line on bad input.
 * Trailing values may be left out: they keep their defaults. */
static inline void bench_args(int argc, char **argv, const bench_param *p,
                              int n, long *val) {
  const char *prog = argv[0];
#if defined(WS_FENCEFREE) && defined(WS_WS_H)
  /* The workers start at first use: here, not in the timed region. */
  (void)ws_num_workers();
#endif
  for (int i = 0; i < n; i++)
    val[i] = p[i].def;
  if (argc == 2 && strcmp(argv[1], "--paper") == 0) {
    for (int i = 0; i < n; i++)
      val[i] = p[i].paper;
    return;
  }
  if (argc - 1 > n) {
    fprintf(stderr, "%s: too many arguments\n", prog);
    bench_usage(prog, p, n);
    exit(2);
  }
  for (int i = 0; i + 1 < argc; i++) {
    char *end;
    errno = 0;
    long v = strtol(argv[i + 1], &end, 10);
    if (errno || end == argv[i + 1] || *end || v < p[i].min || v > p[i].max) {
      fprintf(stderr, "%s: bad %s '%s'\n", prog, p[i].name, argv[i + 1]);
      bench_usage(prog, p, n);
      exit(2);
    }
    val[i] = v;
  }
}

/* The timed region: its wall time, and the CPU time the process spent in
 * it, which other processes on a shared machine do not inflate (the
 * harness compares one-worker runs by it). */
typedef struct bench_clock {
  double wall, cpu;
} bench_clock;

static inline double bench_read(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline bench_clock bench_now(void) {
  bench_clock c;
  c.wall = bench_read(CLOCK_MONOTONIC);
  c.cpu = bench_read(CLOCK_PROCESS_CPUTIME_ID);
  return c;
}

/* Built with -fws-scale, the timed region is also a ws-scale region,
 * "timed": its work and span are a row of the report (docs/scale.md). */
static inline bench_clock bench_start(void) {
#ifdef WS_SCALE
  ws_scale_begin("timed");
#endif
  return bench_now();
}

static inline bench_clock bench_stop(bench_clock start) {
  bench_clock c = bench_now();
#ifdef WS_SCALE
  ws_scale_end("timed");
#endif
  c.wall -= start.wall;
  c.cpu -= start.cpu;
  return c;
}

static inline void bench_time(bench_clock t) {
  printf("time: %.6f\ncpu: %.6f\n", t.wall, t.cpu);
  fflush(stdout);
}

/* A wrong result: say what and exit 1. */
static inline void bench_fail(const char *prog, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: FAILED: ", prog);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

/* malloc or exit 2: inputs too large for this machine are bad input. */
static inline void *bench_alloc(const char *prog, size_t bytes) {
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "%s: out of memory (%zu bytes)\n", prog, bytes);
    exit(2);
  }
  return p;
}

/* Deterministic inputs: splitmix64, so every build sees the same data. */
static inline unsigned long long bench_rand(unsigned long long *s) {
  unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double bench_rand01(unsigned long long *s) {
  return (double)(bench_rand(s) >> 11) * 0x1.0p-53;
}

#endif
