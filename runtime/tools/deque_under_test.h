/*
 * deque_under_test.h — the one place where ws-takestress and ws-litmus
 * --take=runtime touch the runtime's deques: push one task, take back to
 * back, steal one, set delta, and start the deque afresh between rounds.
 * Everything here runs the runtime's own code (runtime/src/deque_<v>.c,
 * compiled into deque_under_test.c so that the owner's take inlines into
 * its loop as it inlines into compiled programs from ws-abi.bc), not a
 * copy of it.  When the deque layout changes, this pair of files is what
 * to port.
 *
 * As in a compiled program, the deque is the owning thread's ws_my_dq,
 * which the fast paths __ws_push_<v> / __ws_take_<v> address through the
 * thread pointer, and the owner holds its tail (the next free slot)
 * itself.  So the thread that calls dut_new is the owner: it alone may
 * push, take, settle and reset, and it drives one deque at a time.
 */
#ifndef WS_DEQUE_UNDER_TEST_H
#define WS_DEQUE_UNDER_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "deque.h"

/* The variants with the Fig. 2a layout (tailhead.h) whose take() the stress
 * can drive; the fenced ones are controls (delta means nothing to them).
 * split and private are not here: their thieves never race the owner's
 * take for the same slot on T (a private deque's owner hands tasks over). */
enum dut_variant { DUT_THE, DUT_CL, DUT_FFTHE, DUT_FFCL, DUT_THEP, DUT_FFMB, DUT_VARIANTS };

/* steal() results besides a task id */
#define DUT_EMPTY (-1)
#define DUT_ABORT (-2)

typedef struct dut dut;

/* By name ("ffthe"), or -1. */
int dut_variant_by_name(const char *name);
const char *dut_variant_name(int v);
/* Whether its thieves rely on bounded TSO and delta. */
int dut_fence_free(int v);
/* Whether its thieves use delta only for an S that was validated (FF-MB,
 * THEP: ws_rt.delta_validated, infinite when S is the default guess). */
int dut_validated_S_only(int v);

/* x of the variant's take() as the runtime ships it: the stores it makes
 * after its own T := t on the path that gets the task back, all to other
 * cache lines (take_stores in ws/variants.def).  FF-THE, FF-CL and FF-MB:
 * 1, the anti-coalescing store to ws_tls_scratch line 0; THEP: 1, its echo
 * P := H; THE and CL: 0 (their fence drains the buffer).  A loop of takes
 * with nothing else between them has exactly x stores between two stores
 * to T (the machine code of take_run_<v> in deque_under_test.c shows it). */
unsigned dut_take_stores(int v);

/* The bound on take() stores a thief allows for: ws_rt.delta, which the
 * runtime's thieves read, and ws_rt.delta_validated, FF-MB's.
 * Process-wide. */
void dut_set_delta(int64_t delta);

/* A deque of variant v owned by the calling thread, with one thief,
 * room for tasks with ids 0..ntasks-1 (pushed at most once each between
 * two dut_settle).  NULL with a message in err (out of memory, or this
 * thread already drives a deque). */
dut *dut_new(int v, uint32_t ntasks, char *err, size_t errlen);
/* The owner. */
void dut_free(dut *d);

/* The owner, between rounds, while the thief is not stealing: the deque is
 * empty again at slot 0, as the joins of the round's stolen tasks leave it
 * (the variant's reset).  The round must have emptied the deque: the owner
 * took back what it did not lose, the thief stole the rest. */
void dut_settle(dut *d);

/* The owner, after a round that went wrong (T and H may be inconsistent):
 * the deque set up afresh, empty at slot 0; only while no thread uses it. */
void dut_reset(dut *d);

/* The owner: write task id into the slot at its tail and publish it. */
void dut_push(dut *d, uint32_t id);

/* Stores a take-loop makes between two takes, besides the take's own:
 * n stores to n distinct cache lines (ws-litmus's L stores), or the
 * stores ws-anticoalesce inserts after a take (store k to line
 * (k + 1) mod WS_SCRATCH_LINES of the thread's ws_tls_scratch: line 0 is
 * the take's own anti-coalescing store). */
typedef enum { DUT_PAD_LINES, DUT_PAD_SCRATCH } dut_pad_kind;
typedef struct dut_pad {
  dut_pad_kind kind;
  unsigned n;
} dut_pad;

/* The owner: up to n takes back to back from its tail down, as a sync of
 * n spawns does, stopping at the first take whose task a thief got.
 * Returns how many tasks the owner got back, with the sum of their ids in
 * *idsum.  Between two takes: the pad's stores, and nothing else. */
uint32_t dut_take_run(dut *d, uint32_t n, dut_pad pad, uint64_t *idsum);

/* The thief: one steal(); a task id, DUT_EMPTY or DUT_ABORT. */
int64_t dut_steal(dut *d);
/* FF-MB: the thief's forced barriers so far, and those after which the
 * owner had taken the task (the races the barrier decided). */
void dut_barrier_counts(const dut *d, uint64_t *barriers, uint64_t *lost);

/* For ws-litmus's own take and thief (FF-THE's, as litmus_ffthe.h mirrors
 * them): the owner's deque, its tail, and the task id of a slot. */
ws_dq *dut_deque(dut *d);
ws_slot *dut_tail(const dut *d);
int64_t dut_task_id(const dut *d, const ws_slot *s);
/* The index of a slot (its distance from slot 0). */
int64_t dut_slot_index(const dut *d, const ws_slot *s);

#endif
