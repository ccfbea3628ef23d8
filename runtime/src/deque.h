/*
 * deque.h — the one interface every deque variant implements, and the
 * deque's memory layout.
 *
 * A deque is an array of task slots (ws/abi.h) and a control block.  The
 * owner's control block lives in its thread's TLS (ws_my_dq), so the fast
 * paths compiled into user code address it directly, with no worker pointer;
 * thieves reach it through ws_worker.dq.  Slots never move: a stolen task
 * is run in its slot by the thief and the slot stays the owner's until the
 * owner joins it, so the tail a sync holds always points at its own task.
 *
 *   push(q, t)          owner: publish the task written into slot t, the tail
 *   take(q, t)          owner: take slot t back (the tail is t + 1): 0 when
 *                       the owner has it, 1 when a thief got it first
 *   steal(q, thief)     thief: claim the oldest task; returns its slot,
 *                       WS_EMPTY, or WS_ABORT (the relaxed specification of
 *                       paper 000 §4: "could not tell", nothing changed)
 *   reset(q, t)         owner, after the join of stolen slot t: the deque is
 *                       empty and its tail is t again
 *
 * Variants (ws/variants.def): the, cl (fenced baselines), ffthe, ffcl, thep
 * (paper 000 Figs. 2-5), split (Lace, paper 003 Fig. 4), private
 * (receiver-initiated private deques, Acar et al. PPoPP'13 as in Lace §4),
 * ffmb (FF-THE's owner; a thief the bound cannot satisfy forces a barrier).
 */
#ifndef WS_DEQUE_H
#define WS_DEQUE_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#include "atomics.h"
#include "ws/abi.h"

#define WS_EMPTY ((ws_slot *)0)
#define WS_ABORT ((ws_slot *)(uintptr_t)2)

static inline int ws_is_task(const ws_slot *r) {
  return r != WS_EMPTY && r != WS_ABORT;
}

typedef struct ws_worker ws_worker;

typedef struct ws_dq {
  /* Owner line.  T: the owner's tail.  The THE family publishes it to
   * thieves at every push and take; split and private keep it for entry
   * points (__ws_tail) only. */
  alignas(WS_CACHE_LINE) ws_slot *_Atomic T;
  ws_slot *end;  /* one past the last slot: a guard page */
  ws_slot *base; /* slot 0 */
  ws_worker *w;  /* the owner */
  ws_slot *o_split; /* split: the owner's copy of the split point;
                       WS_ALLSTOLEN while everything is stolen */
  /* split: what a push must look at, in one word: a thief's request to
   * share more (splitreq, the thieves' byte), and the owner's
   * allstolen (its byte).  A thief's store to its byte leaves the owner's
   * intact (x86 writes bytes). */
  union {
    _Atomic uint16_t any;
    struct {
      _Atomic uint8_t splitreq, allstolen;
    } b;
  } sp_flags;
  ws_slot *o_head;  /* private: the oldest task not handed over (H) */
  /* What sends an entry point (__ws_tail) to its slow path, in one word:
   * the handlers of the program's marked as running on this thread
   * (signals.c: the slow path refuses spawning code inside one), a
   * sleeping thief's request to be woken by the next entry point (idle.c,
   * ws_ask_entry_wake), and, on a thread of the program's that ran a
   * spawning function lowered in place on a deque of its own, that its
   * other calls still go to the workers (startup.c, ws_tail_in_place).
   * Each part has one writer at a time: the owner (marks, in_place), the
   * thieves (wake); x86 writes the parts alone.  Next to T: one more load
   * of its line. */
  union {
    _Atomic uint64_t any;
    struct {
      _Atomic int32_t handler_marks;
      _Atomic int16_t wake, in_place;
    } e;
  } entry;
  /* Thieves' line. */
  alignas(WS_CACHE_LINE) _Atomic uint64_t H; /* THE family: <tag:32, head:32> */
  _Atomic int lock;                           /* THE, FF-THE, THEP */
  _Atomic uint64_t ts;                        /* split: <split:32, tail:32> */
  _Atomic int allstolen;                      /* split */
  _Atomic int request;                        /* private */
  /* A line each for what a waiting thief polls. */
  alignas(WS_CACHE_LINE) _Atomic uint64_t P; /* THEP's echo of H */
  alignas(WS_CACHE_LINE) _Atomic(ws_slot *) transfer; /* private */
} ws_dq;

/* The calling thread's deque (zero on threads the runtime does not own). */
extern __thread ws_dq ws_my_dq __attribute__((tls_model("initial-exec")));

#define WS_ALLSTOLEN ((ws_slot *)UINTPTR_MAX) /* above every slot */
#define WS_NO_REQUEST (-1)
#define WS_REQUESTS_CLOSED (-2)
#define WS_REQUEST_ANSWERING (-3) /* private: the owner claimed the request */
#define WS_TRANSFER_WAIT ((ws_slot *)(uintptr_t)4)

/* Each table's first fields are its row of ws/variants.def: WS_OPS_ROW. */
typedef struct ws_deque_ops {
  const char *name;
  enum ws_variant_id id;
  int fence_free; /* correctness rests on bounded TSO and delta */
  int validated_only; /* a thief trusts delta only under a validated S */
  int weak_memory; /* sound without bounded TSO (AArch64): WS_WEAK_MEMORY */
  /* Sets up q, owned by w, with `capacity` slots: 0, or -1 (no memory). */
  int (*init)(ws_dq *q, ws_worker *w, size_t capacity);
  void (*push)(ws_dq *q, ws_slot *t);
  int (*take)(ws_dq *q, ws_slot *t);
  ws_slot *(*steal)(ws_dq *victim, ws_worker *thief);
  void (*reset)(ws_dq *q, ws_slot *t);
  /* Called while the owner steals or waits (private: answer requests).
   * May be NULL. */
  void (*idle)(ws_dq *q);
  /* Called once when the worker stops for good, and when it parks (a
   * smaller count, ws_set_num_workers).  May be NULL. */
  void (*quiesce)(ws_dq *q);
  /* Called when a parked worker is active again: undoes quiesce.  May be
   * NULL. */
  void (*reopen)(ws_dq *q);
} ws_deque_ops;

#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail, validated_only, summary)                       \
  extern const ws_deque_ops ws_ops_##name;
#include "ws/variants.def"
#undef WS_VARIANT

/* The fields of ops table ws_ops_<row> that its row of ws/variants.def
 * gives: `const ws_deque_ops ws_ops_ffthe = {WS_OPS_ROW(ffthe), ...}`. */
#define WS_OPS_ROW(row)                                                        \
  .name = #row, .id = WS_VARIANT_ID_##row,                                     \
  .fence_free = WS_VARIANT_FENCE_FREE_##row,                                   \
  .validated_only = WS_VARIANT_VALIDATED_ONLY_##row,                           \
  .weak_memory = WS_VARIANT_WEAK_MEMORY_##row
enum {
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail,   \
                   validated_only, summary)                                    \
  WS_VARIANT_FENCE_FREE_##name = fence_free,                                   \
  WS_VARIANT_VALIDATED_ONLY_##name = validated_only,
#include "ws/variants.def"
#undef WS_VARIANT
};
enum {
#define WS_WEAK_MEMORY(name, sound, why) WS_VARIANT_WEAK_MEMORY_##name = sound,
#include "ws/variants.def"
#undef WS_WEAK_MEMORY
};

/* The default deque, and the runtime's on a processor without bounded TSO
 * (ws/variants.def WS_DEFAULT_VARIANT). */
enum {
#define WS_DEFAULT_VARIANT(name, fenced)                                       \
  WS_DEFAULT_VARIANT_ID = WS_VARIANT_ID_##name,                                \
  WS_DEFAULT_FENCED_VARIANT_ID = WS_VARIANT_ID_##fenced,
#include "ws/variants.def"
#undef WS_DEFAULT_VARIANT
};

/* By name ("thep") or id; NULL if unknown. */
const ws_deque_ops *ws_variant_by_name(const char *name);
const ws_deque_ops *ws_variant_by_id(unsigned id);
/* The rows' names, in id order, joined by '|' (for messages). */
const char *ws_variant_names(void);
/* Why a variant is or is not sound without bounded TSO (WS_WEAK_MEMORY),
 * and the names of those that are, joined by ", " (for messages). */
const char *ws_variant_weak_memory_why(const ws_deque_ops *ops);
const char *ws_variant_weak_memory_names(void);

/* Slots: allocation (zeroed, ending at a guard page a push past the end
 * faults in) and the message when the deque is full. */
int ws_slots_alloc(ws_dq *q, ws_worker *w, size_t capacity);
void ws_slots_free(ws_dq *q);
__attribute__((noreturn, cold)) void ws_deque_overflow(ws_dq *q);

/* Every fast path is written once, for a deque q, and instantiated twice:
 * for compiled code on the calling thread's deque (self = 1: q is
 * &ws_my_dq, its fields are addressed straight through the thread pointer),
 * and for the ops table on any deque (self = 0).  A slow path called with
 * q would make the compiler keep the thread pointer in a register across
 * the user's calls for it; the self = 1 instances call the slow path's
 * _self form instead, which finds the deque itself. */
#define WS_SLOW(self, self_call, q_call) ((self) ? (self_call) : (q_call))

/* The helpers that make the fast paths' stores (ws/abi.def WS_ABI_STORE):
 * in the fast-path bitcode they stay functions of their own, so the pass
 * can tag their stores by the helper's name before it inlines them. */
#ifdef WS_FASTPATH_ONLY
#define WS_TAGGED_STORE static inline __attribute__((noinline))
#else
#define WS_TAGGED_STORE static inline __attribute__((always_inline))
#endif

/* The owner's store to T, on every fast path: a push's T store or a
 * take's, never one of the stores counted between two takes. */
WS_TAGGED_STORE void ws_store_tail(ws_dq *q, ws_slot *t) {
  atomic_store_explicit(&q->T, t, ws_release);
}

/* The anti-coalescing store of FF-THE's and FF-CL's take (paper 000 §7.3):
 * a store to another line between any two T stores, so the store buffer
 * cannot merge them and x >= 1 on every path (THEP's echo does the same
 * for it).  ws-storecount counts it (ws/abi.def); ws-anticoalesce pads
 * after it on the other scratch lines. */
WS_TAGGED_STORE void ws_anticoalesce_store(ws_slot *t) {
  ws_tls_scratch[0] = (uint64_t)(uintptr_t)t;
}

#endif
