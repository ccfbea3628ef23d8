/* litmus.c — the two threads of the TSO[S] litmus test and their
 * hand-over between runs. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "litmus.h"
#include "litmus_ffthe.h"

typedef struct line {
  alignas(WS_CACHE_LINE) _Atomic int64_t v;
} line;

/* What the worker tells the thief (one line) and the thief answers (another). */
typedef struct command {
  alignas(WS_CACHE_LINE) _Atomic uint64_t seq; /* run number; UINT64_MAX: quit */
  int64_t delta;
  alignas(WS_CACHE_LINE) _Atomic uint64_t done; /* seq of the finished run */
  int64_t stolen, highest;
} command;

struct litmus {
  ws_dq q;
  command cmd;
  ws_slot slots[LITMUS_TASKS];
  int64_t t_seen[LITMUS_TASKS]; /* thief: the T it read when it stole h */
  line lines[LITMUS_MAX_L];     /* the worker's L stores go here */
  pthread_t thief;
  int thief_cpu;
  int thief_error;
};

static void *thief_main(void *arg) {
  litmus *lt = arg;
  if (pin_self_to_cpu(lt->thief_cpu)) {
    lt->thief_error = errno;
    atomic_store_explicit(&lt->cmd.done, UINT64_MAX, ws_release);
    return NULL;
  }
  atomic_store_explicit(&lt->cmd.done, 0, ws_release);
  uint64_t last = 0;
  for (;;) {
    uint64_t seq;
    while ((seq = atomic_load_explicit(&lt->cmd.seq, ws_acquire)) == last)
      ws_cpu_relax();
    if (seq == UINT64_MAX)
      return NULL;
    last = seq;
    int64_t stolen = 0, highest = -1, delta = lt->cmd.delta;
    ws_slot *r;
    /* Fig. 9: steal until the queue says ABORT (or EMPTY, which FF-THE's
     * steal reports first when it sees no task at all). */
    ws_slot *T;
    while ((r = litmus_ffthe_steal(&lt->q, delta, &T)) != WS_ABORT &&
           r != WS_EMPTY) {
      highest = r - lt->slots;
      lt->t_seen[highest] = T - lt->slots;
      stolen++;
    }
    lt->cmd.stolen = stolen;
    lt->cmd.highest = highest;
    atomic_store_explicit(&lt->cmd.done, seq, ws_release);
  }
}

/* Exactly L stores, to L distinct lines. */
static inline __attribute__((always_inline)) void l_stores(line *lines,
                                                           unsigned L,
                                                           int64_t v) {
  if (!L)
    return;
  __asm__ volatile("1:\n\t"
                   "movq %2, (%0)\n\t"
                   "addq %3, %0\n\t"
                   "decl %1\n\t"
                   "jnz 1b"
                   : "+r"(lines), "+r"(L)
                   : "r"(v), "i"(sizeof(line))
                   : "memory", "cc");
}

/* Fig. 9's worker; returns how many tasks it took: 511, 510, ... down.
 * Its only stores on the way are the take's T := t and the L stores, as
 * docs/bounded-tso.md shows in the machine code: the count lives in a
 * register and nothing is called but the conflict path. */
__attribute__((noinline)) static int64_t worker_take_all(ws_dq *q,
                                                         line *lines,
                                                         unsigned L) {
  int64_t taken = 0;
  for (ws_slot *t = q->end - 1;; t--) {
    if (litmus_ffthe_take(q, t)) /* the queue is empty */
      break;
    taken++;
    l_stores(lines, L, taken);
  }
  return taken;
}

litmus *litmus_start(int worker_cpu, int thief_cpu, char *err, size_t errlen) {
  litmus *lt = aligned_alloc(WS_CACHE_LINE, (sizeof *lt + WS_CACHE_LINE - 1) &
                                                ~(size_t)(WS_CACHE_LINE - 1));
  if (!lt) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  memset(lt, 0, sizeof *lt);
  lt->q.base = lt->slots;
  lt->q.end = lt->slots + LITMUS_TASKS;
  lt->thief_cpu = thief_cpu;
  atomic_init(&lt->cmd.done, UINT64_MAX - 1); /* the thief is not up yet */
  if (pin_self_to_cpu(worker_cpu)) {
    snprintf(err, errlen, "cannot run the worker on CPU %d: %s", worker_cpu,
             strerror(errno));
    free(lt);
    return NULL;
  }
  int rc = pthread_create(&lt->thief, NULL, thief_main, lt);
  if (rc) {
    snprintf(err, errlen, "cannot start the thief thread: %s", strerror(rc));
    free(lt);
    return NULL;
  }
  uint64_t d;
  while ((d = atomic_load_explicit(&lt->cmd.done, ws_acquire)) == UINT64_MAX - 1)
    sched_yield();
  if (d == UINT64_MAX) {
    snprintf(err, errlen, "cannot run the thief on CPU %d: %s", thief_cpu,
             strerror(lt->thief_error));
    pthread_join(lt->thief, NULL);
    free(lt);
    return NULL;
  }
  return lt;
}

void litmus_point(litmus *lt, unsigned L, int64_t delta, uint64_t runs,
                  int stop_at_incorrect, litmus_result *out) {
  memset(out, 0, sizeof *out);
  lt->cmd.delta = delta;
  uint64_t seq = atomic_load_explicit(&lt->cmd.done, ws_relaxed);
  for (uint64_t run = 0; run < runs; run++) {
    /* A full queue: T = 512, H = 0 (the slots never change). */
    atomic_store_explicit(&lt->q.T, lt->q.end, ws_relaxed);
    atomic_store_explicit(&lt->q.H, ws_th_pack(0, lt->q.base), ws_relaxed);
    atomic_store_explicit(&lt->q.lock, 0, ws_relaxed);
    /* seq_cst: the reset is in memory before the thief can start. */
    atomic_store_explicit(&lt->cmd.seq, ++seq, ws_seq_cst);
    int64_t taken = worker_take_all(&lt->q, lt->lines, L);
    int64_t lowest = LITMUS_TASKS - taken;
    while (atomic_load_explicit(&lt->cmd.done, ws_acquire) != seq)
      ws_cpu_relax();
    int64_t stolen = lt->cmd.stolen, highest = lt->cmd.highest;
    out->runs++;
    /* The worker removed [lowest, 512), the thief [0, highest]. */
    int64_t twice = highest >= lowest ? highest - lowest + 1 : 0;
    if (taken + stolen == LITMUS_TASKS && twice == 0)
      continue;
    out->incorrect++;
    out->duplicates += (uint64_t)twice;
    for (int64_t h = lowest; h <= highest; h++) {
      int64_t pending = lt->t_seen[h] - h; /* T stores not yet in memory */
      uint64_t passed = (uint64_t)(pending * ((int64_t)L + 1) - (int64_t)L);
      if (pending > 0 && passed > out->max_passed)
        out->max_passed = passed;
    }
    if (stop_at_incorrect)
      break;
  }
}

void litmus_stop(litmus *lt) {
  atomic_store_explicit(&lt->cmd.seq, UINT64_MAX, ws_seq_cst);
  pthread_join(lt->thief, NULL);
  free(lt);
}
