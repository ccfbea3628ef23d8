/*
 * takestress.h — take versus steal, exactly once, on the runtime's own
 * fast paths (deque_under_test.h), at the tightest delta a bound S allows.
 *
 * An owner and a thief, pinned to two CPUs, play rounds.  In each the
 * thief steals without pause while the owner pushes n tasks and takes
 * them back to back with nothing between two takes but the take's own
 * stores (x of them), as a sync after n spawns does.  The thief's bound is
 * delta = ceil(S / (x + 1)) (paper 000 §4), and n is drawn so that the
 * owner and the thief meet where the thief's check `T - delta > h` decides:
 * if more than delta of the owner's T stores can still sit in its store
 * buffer when the thief reads T, both get the same task.  After the round
 * each task must have run exactly once; one that ran twice or never makes
 * the round bad.
 */
#ifndef WS_TAKESTRESS_H
#define WS_TAKESTRESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct ts_result {
  uint64_t rounds;
  uint64_t bad_rounds;  /* rounds where some task ran twice or never */
  uint64_t twice;       /* tasks run by both the owner and the thief */
  uint64_t lost;        /* tasks that nobody ran */
  uint64_t wrong_takes; /* rounds where the owner got back other tasks than
                           the top of its deque (a broken take) */
  uint64_t steals, aborts;
  uint64_t barriers;    /* FF-MB: steals that forced the barrier on the owner */
  uint64_t barriers_lost; /* ... and then found the owner had the task */
  double seconds;
  char first_bad[256]; /* what went wrong in the first bad round */
} ts_result;

typedef struct ts_progress_fn {
  /* Called about once a second with the result so far. */
  void (*fn)(const ts_result *so_far, void *ctx);
  void *ctx;
} ts_progress_fn;

typedef struct ts_options {
  int variant;       /* enum dut_variant */
  int64_t delta;     /* the thief's bound; INT64_MAX: infinite */
  uint64_t rounds;   /* stop after this many rounds */
  double seconds;    /* ... or after this long (0: no time limit) */
  int stop;          /* ... or at the first bad round */
  int cpus[2];       /* owner, thief */
  ts_progress_fn progress;
} ts_options;

/* Rounds of at most this many tasks. */
#define TS_MAX_ROUND 4096

/* delta = ceil(S / (x + 1)), INT64_MAX for an infinite S. */
int64_t ts_delta_for(uint32_t S, int S_inf, unsigned x);

/* Runs the stress; the calling thread becomes the owner.  0, or -1 with
 * one line in err (a CPU that cannot be used, out of memory). */
int ts_run(const ts_options *o, ts_result *out, char *err, size_t errlen);

#endif
