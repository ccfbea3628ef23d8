/*
 * deque_harness.h — standalone workers for driving the internal deque
 * interface (src/deque.h) directly, without the scheduler.
 *
 * The runtime's constructor has already started when a test's main runs.
 * Tests run with WS_NUM_WORKERS=1 so that no runtime thread touches
 * ws_rt while the harness points it at the test's own workers.
 */
#ifndef WS_DEQUE_HARNESS_H
#define WS_DEQUE_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "worker.h"

/* Prints "FAIL file:line: message" and ends the process with status 1
 * without running atexit handlers (ws_rt may point at test workers). */
__attribute__((noreturn, format(printf, 3, 4))) void
dh_fail(const char *file, int line, const char *fmt, ...);

#define DH_CHECK(cond, ...)                                                    \
  do {                                                                         \
    if (!(cond))                                                               \
      dh_fail(__FILE__, __LINE__, __VA_ARGS__);                                \
  } while (0)

/* The variant of that name, or a usage message and exit status 2. */
const ws_deque_ops *dh_variant(const char *name);

/* A worker set up as startup.c's does, with a deque of `capacity` slots on
 * the heap (not in the thread's TLS: one thread drives several). */
ws_worker *dh_new_worker(const ws_deque_ops *ops, int id, size_t capacity);
void dh_free_worker(ws_worker *w);

/* Points ws_rt at the test's workers, indexed by id: the private deque
 * answers a thief through ws_rt.workers[thief->id], the fence-free thieves
 * read ws_rt.delta.  Saves the runtime's own state on first use. */
void dh_install(const ws_deque_ops *ops, ws_worker **workers, int n,
                int64_t delta);
/* Gives the runtime its state back; call before returning from main. */
void dh_restore(void);
/* The runtime's delta as it resolved it at start-up (ceil(S/2) here: no
 * module records, so x = 1; S from WS_STORE_BUFFER or the default). */
int64_t dh_runtime_delta(void);

/* What compiled code does around a push and a take of slot t: the deque's
 * own push and take, and the tail stored where __ws_tail (and the private
 * deque's answers while its owner waits) find it, which split and private
 * leave to compiled code (ws/variants.def publishes_tail). */
void dh_push(const ws_deque_ops *ops, ws_worker *w, ws_slot *t);
int dh_take(const ws_deque_ops *ops, ws_worker *w, ws_slot *t);

/* A task in slot t as a thief runs it: state := thief, run, state := DONE.
 * The test's tasks record what they are in their payload. */
void dh_mark_running(ws_slot *t, ws_worker *thief);
void dh_mark_done(ws_slot *t, ws_worker *thief);
/* __ws_join for the test's workers: with the tail above t, call `help`
 * until the thief is done with t, then clear its state and reset the deque
 * to t. */
void dh_join(const ws_deque_ops *ops, ws_worker *w, ws_slot *t,
             void (*help)(ws_worker *w, ws_slot *t));

/* One steal by `thief` from `victim` as a sequential step.  For the
 * private deque the victim must answer the request, so the steal runs on
 * a helper thread while the calling thread, the victim's owner, answers. */
ws_slot *dh_steal(const ws_deque_ops *ops, ws_worker *victim, ws_worker *thief);

static inline uint64_t dh_rand(uint64_t *s) {
  uint64_t x = *s; /* xorshift64 */
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

#endif
