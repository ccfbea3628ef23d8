/*
 * litmus.h — the TSO[S] litmus test of paper 000 §7.3 (Fig. 9): a worker
 * and a thief, pinned to two CPUs, empty an FF-THE queue of 512 tasks; the
 * worker makes L stores to distinct cache lines between its takes and no
 * other store but the take's T := t.  A run is correct iff every task was
 * removed exactly once.
 */
#ifndef WS_LITMUS_H
#define WS_LITMUS_H

#include <stddef.h>
#include <stdint.h>

#define LITMUS_TASKS 512
#define LITMUS_MAX_L 4096

typedef struct litmus litmus;

typedef struct litmus_result {
  uint64_t runs;
  uint64_t incorrect;  /* runs where some task was removed twice or never */
  uint64_t duplicates; /* tasks removed twice, over all runs */
  /* The most stores one of the worker's loads of H was seen to pass: in a
   * run where worker and thief both removed task h, and the thief had read
   * T = T' >= h + delta + 1, the worker's stores T := T'-1 .. T := h and
   * the L stores between them were all still buffered when it read H:
   * (T' - h)(L + 1) - L stores.  0 when no run was incorrect. */
  uint64_t max_passed;
} litmus_result;

/* The calling thread becomes the worker, pinned to worker_cpu; a thief
 * thread is started on thief_cpu.  NULL with a message in err. */
litmus *litmus_start(int worker_cpu, int thief_cpu, char *err, size_t errlen);

/* `runs` runs with L stores between takes and the given delta; fewer if
 * stop_at_incorrect and one run is incorrect. */
void litmus_point(litmus *lt, unsigned L, int64_t delta, uint64_t runs,
                  int stop_at_incorrect, litmus_result *out);

void litmus_stop(litmus *lt);

#endif
