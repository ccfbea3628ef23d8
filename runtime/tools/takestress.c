/* takestress.c — the owner's and the thief's side of a round, and the
 * exactly-once check after it. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "affinity.h"
#include "deque_under_test.h"
#include "takestress.h"

/* The owner's orders (one line) and the thief's answers (another). */
typedef struct round_ctl {
  alignas(WS_CACHE_LINE) _Atomic uint64_t go;   /* round number; UINT64_MAX: quit */
  _Atomic uint64_t owner_done;                  /* the owner's takes are over */
  alignas(WS_CACHE_LINE) _Atomic uint64_t done; /* the thief has stopped */
} round_ctl;

typedef struct stress {
  round_ctl ctl;
  dut *d;
  uint32_t *thief_runs; /* per task id, written by the thief only */
  uint64_t steals, aborts;
  int thief_cpu, thief_error;
  pthread_t thief;
} stress;

int64_t ts_delta_for(uint32_t S, int S_inf, unsigned x) {
  if (S_inf)
    return INT64_MAX;
  uint64_t d = ((uint64_t)S + x) / ((uint64_t)x + 1);
  return d < 1 ? 1 : (int64_t)d;
}

/* The thief steals without pause from the round's start until it has
 * seen the owner done and a steal after that found nothing more. */
static void *thief_main(void *arg) {
  stress *s = arg;
  if (pin_self_to_cpu(s->thief_cpu)) {
    s->thief_error = errno;
    atomic_store_explicit(&s->ctl.done, UINT64_MAX, ws_release);
    return NULL;
  }
  atomic_store_explicit(&s->ctl.done, 0, ws_release);
  uint64_t last = 0;
  for (;;) {
    uint64_t r;
    while ((r = atomic_load_explicit(&s->ctl.go, ws_acquire)) == last)
      ws_cpu_relax();
    if (r == UINT64_MAX)
      return NULL;
    last = r;
    for (;;) {
      int owner_done = atomic_load_explicit(&s->ctl.owner_done, ws_acquire) == r;
      int64_t got = dut_steal(s->d);
      if (got >= 0) {
        s->thief_runs[got]++;
        s->steals++;
        continue;
      }
      if (got == DUT_ABORT)
        s->aborts++;
      if (owner_done)
        break; /* its last T was in memory before this steal began */
    }
    atomic_store_explicit(&s->ctl.done, r, ws_release);
  }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t next_rand(uint64_t *x) {
  *x ^= *x << 13; /* xorshift64 */
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Round sizes.  The thief gets a task only while more than delta are
 * queued, so the owner's takes and the thief's steals meet where the
 * thief's check decides only if a round has more than delta + 1 tasks;
 * a few more move the meeting point about.  (On the Zen 4 guest, rounds
 * of delta+2..delta+6 tasks refuted S = 65 several times more often than
 * delta+2..2*delta+8.) */
static void round_sizes(int64_t delta, uint32_t *lo, uint32_t *hi) {
  if (delta > TS_MAX_ROUND - 8) { /* S = inf: no steal depends on the bound */
    *lo = 2;
    *hi = 64;
    return;
  }
  *lo = (uint32_t)delta + 2;
  *hi = (uint32_t)delta + 6;
}

/* After round r of n tasks, of which the owner got the top `got`: each
 * task ran exactly once.  Returns whether the round was good. */
static int check_round(stress *s, uint64_t r, uint32_t n, uint32_t got,
                       uint64_t idsum, ts_result *out) {
  uint64_t want = 0;
  for (uint32_t i = n - got; i < n; i++)
    want += i;
  uint32_t twice = 0, lost = 0, stolen = 0, first = UINT32_MAX;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t runs = s->thief_runs[i] + (i >= n - got);
    stolen += s->thief_runs[i];
    if (runs == 1)
      continue;
    if (first == UINT32_MAX)
      first = i;
    if (runs == 0)
      lost++;
    else
      twice += runs - 1;
  }
  if (want == idsum && !twice && !lost)
    return 1;
  out->bad_rounds++;
  out->twice += twice;
  out->lost += lost;
  out->wrong_takes += want != idsum;
  if (out->bad_rounds > 1)
    return 0;
  if (first == UINT32_MAX)
    snprintf(out->first_bad, sizeof out->first_bad,
             "round %llu (%u tasks): the owner's %u takes returned tasks other "
             "than the top of its deque",
             (unsigned long long)r, n, got);
  else
    snprintf(out->first_bad, sizeof out->first_bad,
             "round %llu (tasks 0..%u pushed): task %u ran %u times (taken "
             "back by the owner: %s, stolen: %u times); the owner took back "
             "%u, the thief stole %u; %u runs too many, %u tasks never ran",
             (unsigned long long)r, n - 1, first,
             s->thief_runs[first] + (first >= n - got),
             first >= n - got ? "yes" : "no", s->thief_runs[first], got, stolen,
             twice, lost);
  return 0;
}

int ts_run(const ts_options *o, ts_result *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  stress *s = aligned_alloc(WS_CACHE_LINE, (sizeof *s + WS_CACHE_LINE - 1) &
                                               ~(size_t)(WS_CACHE_LINE - 1));
  if (!s) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  memset(s, 0, sizeof *s);
  s->thief_runs = calloc(TS_MAX_ROUND, sizeof *s->thief_runs);
  s->d = s->thief_runs ? dut_new(o->variant, TS_MAX_ROUND, err, errlen) : NULL;
  if (!s->d) {
    if (!s->thief_runs)
      snprintf(err, errlen, "out of memory");
    free(s->thief_runs);
    free(s);
    return -1;
  }
  dut_set_delta(o->delta);
  s->thief_cpu = o->cpus[1];
  atomic_init(&s->ctl.done, UINT64_MAX - 1); /* the thief is not up yet */
  int rc = 0;
  if (pin_self_to_cpu(o->cpus[0])) {
    snprintf(err, errlen, "cannot run the owner on CPU %d: %s", o->cpus[0],
             strerror(errno));
    rc = -1;
    goto out;
  }
  if ((errno = pthread_create(&s->thief, NULL, thief_main, s))) {
    snprintf(err, errlen, "cannot start the thief thread: %s", strerror(errno));
    rc = -1;
    goto out;
  }
  uint64_t st;
  while ((st = atomic_load_explicit(&s->ctl.done, ws_acquire)) == UINT64_MAX - 1)
    sched_yield();
  if (st == UINT64_MAX) {
    snprintf(err, errlen, "cannot run the thief on CPU %d: %s", o->cpus[1],
             strerror(s->thief_error));
    pthread_join(s->thief, NULL);
    rc = -1;
    goto out;
  }

  uint32_t lo, hi;
  round_sizes(o->delta, &lo, &hi);
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  double start = now(), last_report = start;
  const dut_pad no_pad = {DUT_PAD_LINES, 0};
  for (uint64_t r = 1; r <= o->rounds; r++) {
    uint32_t n = lo + (uint32_t)(next_rand(&rng) % (hi - lo + 1));
    memset(s->thief_runs, 0, n * sizeof *s->thief_runs);
    /* The thief starts stealing, and the owner pushes and takes back. */
    atomic_store_explicit(&s->ctl.go, r, ws_release);
    for (uint32_t i = 0; i < n; i++)
      dut_push(s->d, i);
    uint64_t idsum;
    uint32_t got = dut_take_run(s->d, n, no_pad, &idsum);
    atomic_store_explicit(&s->ctl.owner_done, r, ws_release);
    while (atomic_load_explicit(&s->ctl.done, ws_acquire) != r)
      ws_cpu_relax();
    out->rounds = r;
    if (check_round(s, r, n, got, idsum, out)) {
      dut_settle(s->d); /* back to slot 0, as the joins would leave it */
    } else {
      if (o->stop)
        break;
      dut_reset(s->d); /* so the next round does not inherit the damage */
    }
    if ((r & 1023) == 0) {
      double t = now();
      if (o->seconds > 0 && t - start >= o->seconds)
        break;
      if (o->progress.fn && t - last_report >= 1.0) {
        last_report = t;
        out->seconds = t - start;
        out->steals = s->steals;
        out->aborts = s->aborts;
        dut_barrier_counts(s->d, &out->barriers, &out->barriers_lost);
        o->progress.fn(out, o->progress.ctx);
      }
    }
  }
  atomic_store_explicit(&s->ctl.go, UINT64_MAX, ws_release);
  pthread_join(s->thief, NULL);
  out->seconds = now() - start;
  out->steals = s->steals;
  out->aborts = s->aborts;
  dut_barrier_counts(s->d, &out->barriers, &out->barriers_lost);
out:
  dut_free(s->d);
  free(s->thief_runs);
  free(s);
  return rc;
}
