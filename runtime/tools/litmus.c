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
  dut *d;   /* the queue: the runtime's FF-THE deque and its tasks */
  ws_dq *q; /* its T, H and slots, for the paper's take and steal */
  command cmd;
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
    while ((r = litmus_ffthe_steal(lt->q, delta, &T)) != WS_ABORT &&
           r != WS_EMPTY) {
      highest = dut_task_id(lt->d, r);
      lt->t_seen[highest] = dut_slot_index(lt->d, T);
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

/* Exactly L stores where ws-anticoalesce puts its own: store k to line
 * (k + 1) mod WS_SCRATCH_LINES of the thread's ws_tls_scratch (line 0 is
 * the runtime take's anti-coalescing store), volatile as the pass emits
 * them (deque_under_test.c pads the runtime's take the same way). */
static inline __attribute__((always_inline)) void scratch_stores(unsigned L) {
  for (unsigned k = 0; k < L; k++)
    ws_tls_scratch[((k + 1) % WS_SCRATCH_LINES) * 8] = k;
}

/* Fig. 9's worker; returns how many tasks it took: 511, 510, ... down.
 * Its only stores on the way are the take's T := t and the L stores, as
 * docs/bounded-tso.md shows in the machine code: the count lives in a
 * register and nothing is called but the conflict path. */
__attribute__((noinline)) static int64_t worker_take_all(ws_dq *q, ws_slot *tail,
                                                         line *lines, dut_pad pad) {
  int64_t taken = 0;
  for (ws_slot *t = tail - 1;; t--) {
    if (litmus_ffthe_take(q, t)) /* the queue is empty */
      break;
    taken++;
    if (pad.kind == DUT_PAD_LINES)
      l_stores(lines, pad.n, taken);
    else
      scratch_stores(pad.n);
  }
  return taken;
}

unsigned litmus_x(litmus_take take, unsigned L) {
  return L + (take == LITMUS_TAKE_RUNTIME ? dut_take_stores(DUT_FFTHE) : 0);
}

litmus *litmus_start(int worker_cpu, int thief_cpu, char *err, size_t errlen) {
  litmus *lt = aligned_alloc(WS_CACHE_LINE, (sizeof *lt + WS_CACHE_LINE - 1) &
                                                ~(size_t)(WS_CACHE_LINE - 1));
  if (!lt) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  memset(lt, 0, sizeof *lt);
  lt->d = dut_new(DUT_FFTHE, LITMUS_TASKS, err, errlen);
  if (!lt->d) {
    free(lt);
    return NULL;
  }
  lt->q = dut_deque(lt->d);
  lt->thief_cpu = thief_cpu;
  atomic_init(&lt->cmd.done, UINT64_MAX - 1); /* the thief is not up yet */
  if (pin_self_to_cpu(worker_cpu)) {
    snprintf(err, errlen, "cannot run the worker on CPU %d: %s", worker_cpu,
             strerror(errno));
    dut_free(lt->d);
    free(lt);
    return NULL;
  }
  int rc = pthread_create(&lt->thief, NULL, thief_main, lt);
  if (rc) {
    snprintf(err, errlen, "cannot start the thief thread: %s", strerror(rc));
    dut_free(lt->d);
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
    dut_free(lt->d);
    free(lt);
    return NULL;
  }
  return lt;
}

void litmus_point(litmus *lt, litmus_take take, dut_pad pad, int64_t delta,
                  uint64_t runs, int stop_at_incorrect, litmus_result *out) {
  memset(out, 0, sizeof *out);
  lt->cmd.delta = delta;
  int64_t x = litmus_x(take, pad.n);
  uint64_t seq = atomic_load_explicit(&lt->cmd.done, ws_relaxed);
  for (uint64_t run = 0; run < runs; run++) {
    /* A full queue: tasks 0..511 in slots 0..511, pushed by the runtime's
     * push onto the deque its reset left empty at slot 0. */
    dut_settle(lt->d);
    for (uint32_t i = 0; i < LITMUS_TASKS; i++)
      dut_push(lt->d, i);
    /* seq_cst: the reset is in memory before the thief can start. */
    atomic_store_explicit(&lt->cmd.seq, ++seq, ws_seq_cst);
    uint64_t idsum;
    int64_t taken = take == LITMUS_TAKE_RUNTIME
                        ? dut_take_run(lt->d, LITMUS_TASKS, pad, &idsum)
                        : worker_take_all(lt->q, dut_tail(lt->d), lt->lines, pad);
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
      uint64_t passed = (uint64_t)(pending * (x + 1) - x);
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
  dut_free(lt->d);
  free(lt);
}
