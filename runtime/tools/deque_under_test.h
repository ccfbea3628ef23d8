/*
 * deque_under_test.h — the one place where ws-takestress and ws-litmus
 * --take=runtime touch the runtime's deques: push one task, take back to
 * back, steal one, set delta.  Everything here runs the runtime's own code
 * (runtime/src/deque_<v>.c, compiled into deque_under_test.c so that the
 * owner's take inlines into its loop as it inlines into compiled programs
 * from ws-abi.bc), not a copy of it.  When the deque layout changes, this
 * pair of files is what to port.
 */
#ifndef WS_DEQUE_UNDER_TEST_H
#define WS_DEQUE_UNDER_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "deque.h"

/* The variants with the Fig. 2a layout whose take() the stress can drive;
 * the fenced ones are controls (delta means nothing to them). */
enum dut_variant { DUT_THE, DUT_CL, DUT_FFTHE, DUT_FFCL, DUT_THEP, DUT_VARIANTS };

/* steal() results besides a task id */
#define DUT_EMPTY (-1)
#define DUT_ABORT (-2)

typedef struct dut dut;

/* By name ("ffthe"), or -1. */
int dut_variant_by_name(const char *name);
const char *dut_variant_name(int v);
/* Whether its thieves rely on bounded TSO and delta. */
int dut_fence_free(int v);

/* x of the variant's take() as the runtime ships it: the stores it makes
 * besides its own T := t on the path that gets the task back, all of them
 * to other cache lines.  FF-THE and FF-CL: 1 (the anti-coalescing
 * ws_count_take); THEP: 2 (the echo P := s, then ws_count_take).  A loop
 * of takes with nothing else between them has exactly x stores between
 * two stores to T (the machine code of dut_take_run shows it). */
unsigned dut_take_stores(int v);

/* The bound on take() stores a thief allows for (ws_rt.delta, which the
 * runtime's thieves read).  Process-wide. */
void dut_set_delta(int64_t delta);

/* A deque of variant v with its owner and one thief, holding tasks with
 * ids 0..ntasks-1 (the owner pushes each at most once between rounds).
 * NULL with a message in err. */
dut *dut_new(int v, uint32_t ntasks, char *err, size_t errlen);
void dut_free(dut *d);

/* Empties the deque and starts it afresh (after a round that went wrong
 * leaves T and H inconsistent); only while no thread uses it. */
void dut_reset(dut *d);

/* The owner: push task id. */
void dut_push(dut *d, uint32_t id);

/* Stores a take-loop makes between two takes, besides the take's own:
 * n stores to n distinct cache lines (ws-litmus's L stores), or the
 * stores ws-anticoalesce inserts after a take (store k to scratch line
 * k mod WS_SCRATCH_LINES). */
typedef enum { DUT_PAD_LINES, DUT_PAD_SCRATCH } dut_pad_kind;
typedef struct dut_pad {
  dut_pad_kind kind;
  unsigned n;
} dut_pad;

/* The owner: up to n takes back to back, as a sync of n spawns does,
 * stopping at the first take whose task a thief got.  Returns how many
 * tasks the owner got back, with the sum of their ids in *idsum.  Between
 * two takes: the pad's stores, and nothing else. */
uint32_t dut_take_run(dut *d, uint32_t n, dut_pad pad, uint64_t *idsum);

/* The thief: one steal(); a task id, DUT_EMPTY or DUT_ABORT. */
int64_t dut_steal(dut *d);

/* For ws-litmus's own thief (FF-THE's steal as litmus_ffthe.h mirrors it):
 * the owner's deque, and the id of a task pointer it returned. */
ws_thedeque *dut_deque(dut *d);
int64_t dut_task_id(const dut *d, const ws_task *t);

#endif
