/*
 * deque.h — the one interface every deque variant implements, and the
 * memory layout of each.
 *
 *   put(w, t)          owner: push t at the tail (the bottom of the stack)
 *   take(w)            owner: remove the most recent task; returns it, or
 *                      WS_STOLEN(t) when a thief got it first (t is then a
 *                      hint only: once THE or Chase-Lev lose a task their
 *                      window has moved up, and later stolen takes of the
 *                      same frame report the same slot; the caller knows
 *                      which descriptor it pushed), or WS_EMPTY
 *   steal(victim, me)  thief: remove the oldest task; returns it, WS_EMPTY,
 *                      or WS_ABORT (the relaxed specification of paper 000
 *                      §4: "could not tell", nothing changed)
 *
 * Variants: the, cl (fenced baselines), ffthe, ffcl, thep (paper 000
 * Figs. 2-5), split (Lace, paper 003 Fig. 4), private (receiver-initiated
 * private deques, Acar et al. PPoPP'13 as implemented in Lace §4).
 */
#ifndef WS_DEQUE_H
#define WS_DEQUE_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "atomics.h"
#include "ws/abi.h"

#define WS_EMPTY ((ws_task *)0)
#define WS_ABORT ((ws_task *)(uintptr_t)2)
#define WS_STOLEN(t) ((ws_task *)((uintptr_t)(t) | WS_TAKE_STOLEN))

static inline int ws_is_task(const ws_task *r) {
  return r != WS_EMPTY && ((uintptr_t)r & 7) == 0;
}
static inline int ws_is_stolen(const ws_task *r) {
  return ((uintptr_t)r & 7) == WS_TAKE_STOLEN;
}
static inline ws_task *ws_untag(const ws_task *r) {
  return (ws_task *)((uintptr_t)r & ~(uintptr_t)7);
}

/* The owner re-reading a slot it wrote itself: no other thread writes
 * slots, so a plain load is race-free.  The mask makes the pointer visibly
 * untagged: compiled code that only tests the stolen bit folds the test,
 * and then the load, away on this path. */
static inline ws_task *ws_own_slot(ws_task *const *slot) {
  return (ws_task *)((uintptr_t)*slot & ~(uintptr_t)7);
}

/* THE, Chase-Lev and their fence-free forms (paper 000 Fig. 2a layout):
 * non-wrapping indices T (tail, owner) and H (head, thieves) into a cyclic
 * array of W = mask+1 task pointers. */
typedef struct ws_thedeque {
  /* Owner line: T is written by every put and take, read by thieves. */
  alignas(WS_CACHE_LINE) _Atomic int64_t T;
  ws_task **tasks; /* slots: the owner writes, thieves read (__atomic) */
  int64_t mask;
  int64_t h_seen;  /* a lower bound of H, for the owner's overflow check */
  int packed_head; /* THEP: H holds <s:32, h:32> */
  /* Thieves' line: H (THEP: the heartbeat counter s and h) and the lock. */
  alignas(WS_CACHE_LINE) _Atomic uint64_t H;
  _Atomic int lock;
  /* THEP's echo P, written by the worker, read by a waiting thief. */
  alignas(WS_CACHE_LINE) _Atomic int64_t P;
} ws_thedeque;

/* Lace's split deque: tasks [0, tail) are stolen, [tail, split) shared,
 * [split, head) private to the owner.  tail and split are adjacent 32-bit
 * halves of one word so thieves can CAS them together while the owner
 * stores split alone. */
typedef struct ws_splitdeque {
  alignas(WS_CACHE_LINE) union {
    _Atomic uint64_t ts;
    struct {
      _Atomic uint32_t tail;
      _Atomic uint32_t split;
    } half;
  } u;
  _Atomic int allstolen;
  alignas(WS_CACHE_LINE) _Atomic int splitreq;
  alignas(WS_CACHE_LINE) uint32_t head; /* owner only from here on */
  uint32_t o_split;
  int o_allstolen;
  uint32_t size;
  ws_task **tasks; /* slots: the owner writes, thieves read (__atomic) */
} ws_splitdeque;

/* Private deque: [H, T) belongs to the owner alone.  A thief writes its id
 * into `request`; the owner answers at spawn and sync points by handing its
 * oldest task over through the thief's `transfer` cell. */
typedef struct ws_privdeque {
  alignas(WS_CACHE_LINE) int64_t T, H;
  ws_task **tasks;
  int64_t mask;
  alignas(WS_CACHE_LINE) _Atomic int request;
  alignas(WS_CACHE_LINE) _Atomic(ws_task *) transfer;
} ws_privdeque;

#define WS_NO_REQUEST (-1)
#define WS_REQUESTS_CLOSED (-2)
#define WS_TRANSFER_WAIT ((ws_task *)(uintptr_t)4)

typedef union ws_deque {
  ws_thedeque th;
  ws_splitdeque sp;
  ws_privdeque pr;
} ws_deque;

typedef struct ws_deque_ops {
  const char *name;
  enum ws_variant_id id;
  int fence_free; /* correctness rests on bounded TSO and delta */
  int (*init)(ws_worker *w, size_t capacity); /* 0 or -1 (out of memory) */
  void (*fini)(ws_worker *w);
  void (*put)(ws_worker *w, ws_task *t);
  ws_task *(*take)(ws_worker *w);
  ws_task *(*steal)(ws_worker *victim, ws_worker *thief);
  /* After a stolen task has been joined (split: pop it off).  May be NULL. */
  void (*pop_stolen)(ws_worker *w);
  /* Called while the worker steals or waits (private: answer requests).
   * May be NULL. */
  void (*idle)(ws_worker *w);
  /* Called once when the worker stops for good.  May be NULL. */
  void (*quiesce)(ws_worker *w);
} ws_deque_ops;

extern const ws_deque_ops ws_ops_the, ws_ops_cl, ws_ops_ffthe, ws_ops_ffcl,
    ws_ops_thep, ws_ops_split, ws_ops_private;

/* By name ("thep") or id; NULL if unknown. */
const ws_deque_ops *ws_variant_by_name(const char *name);
const ws_deque_ops *ws_variant_by_id(unsigned id);
/* "the|cl|ffthe|ffcl|thep|split|private" */
const char *ws_variant_names(void);

#endif
