/*
 * litmus.h — the TSO[S] litmus test of paper 000 §7.3 (Fig. 9): a worker
 * and a thief, pinned to two CPUs, empty an FF-THE queue of 512 tasks; the
 * worker makes L stores between its takes and no other store but the
 * take's own.  A run is correct iff every task was removed exactly once.
 *
 * The take is the paper's (litmus_ffthe.h: T := t and nothing else), or
 * the runtime's own __ws_take_ffthe, which adds its anti-coalescing store
 * (deque_under_test.h); the L stores go to L distinct lines, or where
 * ws-anticoalesce puts the stores it inserts (store k to scratch line
 * (k + 1) mod 8 of ws_tls_scratch).  With the paper's take and L = 0, consecutive stores to T may
 * coalesce (§7.3); the two other kinds of stores are what is meant to
 * stop that, and this test is how to see whether they do.
 */
#ifndef WS_LITMUS_H
#define WS_LITMUS_H

#include <stddef.h>
#include <stdint.h>

#include "deque_under_test.h"

#define LITMUS_TASKS 512
#define LITMUS_MAX_L 4096

typedef struct litmus litmus;

typedef enum { LITMUS_TAKE_MIRROR, LITMUS_TAKE_RUNTIME } litmus_take;

typedef struct litmus_result {
  uint64_t runs;
  uint64_t incorrect;  /* runs where some task was removed twice or never */
  uint64_t duplicates; /* tasks removed twice, over all runs */
  /* The most stores one of the worker's loads of H was seen to pass: in a
   * run where worker and thief both removed task h, and the thief had read
   * T = T' >= h + delta + 1, the worker's stores T := T'-1 .. T := h and
   * the x stores between each two were all still buffered when it read H:
   * (T' - h)(x + 1) - x stores.  0 when no run was incorrect. */
  uint64_t max_passed;
} litmus_result;

/* The calling thread becomes the worker, pinned to worker_cpu; a thief
 * thread is started on thief_cpu.  NULL with a message in err. */
litmus *litmus_start(int worker_cpu, int thief_cpu, char *err, size_t errlen);

/* Stores between two stores to T with this take and L: L, plus the
 * runtime take's own anti-coalescing store. */
unsigned litmus_x(litmus_take take, unsigned L);

/* `runs` runs with L stores of the given kind between takes and the given
 * delta; fewer if stop_at_incorrect and one run is incorrect. */
void litmus_point(litmus *lt, litmus_take take, dut_pad pad, int64_t delta,
                  uint64_t runs, int stop_at_incorrect, litmus_result *out);

void litmus_stop(litmus *lt);

#endif
