/*
 * deque_split.c — Lace's non-blocking split deque (paper 003 §3, Fig. 4).
 * The owner works on the private part [split, head) without atomic
 * operations or fences; thieves CAS (tail, split) on the shared part
 * [tail, split).  Only shrink_shared, which moves the split point back
 * towards the thieves, needs a fence.  Stolen tasks stay in their slots
 * until their join resets the deque (Fig. 4 pop_stolen).
 *
 * The owner's head is the tail compiled code holds (thieves never read
 * it, so the fast paths do not store it: ws/variants.def publishes_tail);
 * the owner keeps its split point as a slot (o_split), the thieves'
 * (tail, split) are slot indices, the two halves of one word.  What a push
 * must check, allstolen and splitreq, shares one word (sp_flags).
 */
#include <sched.h>

#include "worker.h"

void ws_split_grow_shared(ws_dq *q, ws_slot *head);
int ws_split_take_shared(ws_dq *q, ws_slot *t);
void ws_split_push_slow(ws_dq *q, ws_slot *head);
void ws_split_grow_shared_self(ws_slot *head);
int ws_split_take_shared_self(ws_slot *t);
void ws_split_push_slow_self(ws_slot *head);

static inline uint32_t split_index(const ws_dq *q, const ws_slot *s) {
  return (uint32_t)(s - q->base);
}

static inline __attribute__((always_inline)) void split_push(ws_dq *q, int self,
                                                             ws_slot *t) {
  /* Fig. 4 push lines 14-20: if allstolen ... else if splitreq ... */
  if (ws_unlikely(ws_peek16(&q->sp_flags.any)))
    WS_SLOW(self, ws_split_push_slow_self(t + 1), ws_split_push_slow(q, t + 1));
}

static inline __attribute__((always_inline)) int split_take(ws_dq *q, int self,
                                                            ws_slot *t) {
  /* split >= head: no private task left (or everything stolen: o_split
   * is WS_ALLSTOLEN): take back shared work, or find t stolen. */
  if (ws_unlikely(q->o_split > t))
    return WS_SLOW(self, ws_split_take_shared_self(t), ws_split_take_shared(q, t));
  if (ws_unlikely(ws_peek8(&q->sp_flags.b.splitreq)))
    WS_SLOW(self, ws_split_grow_shared_self(t), ws_split_grow_shared(q, t));
  return 0;
}

void __ws_push_split(ws_slot *t) { split_push(&ws_my_dq, 1, t); }
int __ws_take_split(ws_slot *t) { return split_take(&ws_my_dq, 1, t); }

#ifndef WS_FASTPATH_ONLY

void ws_split_grow_shared_self(ws_slot *head) { ws_split_grow_shared(&ws_my_dq, head); }
int ws_split_take_shared_self(ws_slot *t) { return ws_split_take_shared(&ws_my_dq, t); }
void ws_split_push_slow_self(ws_slot *head) { ws_split_push_slow(&ws_my_dq, head); }

static void set_allstolen(ws_dq *q, int v) {
  atomic_store_explicit(&q->allstolen, v, ws_release);
  atomic_store_explicit(&q->sp_flags.b.allstolen, (uint8_t)v, ws_relaxed);
  q->o_split = v ? WS_ALLSTOLEN : q->o_split;
}

/* The split point, the upper half of ts (x86 is little-endian). */
static inline _Atomic uint32_t *split_half(ws_dq *q) {
  return (_Atomic uint32_t *)((char *)&q->ts + 4);
}
static inline _Atomic uint32_t *tail_half(ws_dq *q) {
  return (_Atomic uint32_t *)&q->ts;
}

/* Thieves asked for work: move the split point halfway towards head.  The
 * shared part only grows, so neither a fence nor an atomic is needed. */
__attribute__((noinline)) void ws_split_grow_shared(ws_dq *q, ws_slot *head) {
  uint32_t new_s = (split_index(q, q->o_split) + split_index(q, head) + 1) / 2;
  atomic_store_explicit(split_half(q), new_s, ws_release);
  q->o_split = q->base + new_s;
  atomic_store_explicit(&q->sp_flags.b.splitreq, 0, ws_relaxed);
}

/* push() lines 14-20 after the flags said something: the first task after
 * everything was stolen becomes the shared one, next to be stolen; or the
 * thieves asked for more. */
__attribute__((noinline)) void ws_split_push_slow(ws_dq *q, ws_slot *head) {
  if (q->o_split == WS_ALLSTOLEN) {
    uint32_t h = split_index(q, head);
    atomic_store_explicit(&q->ts, ((uint64_t)h << 32) | (uint64_t)(h - 1),
                          ws_release); /* (tail, split) := (head-1, head) */
    q->o_split = head;
    set_allstolen(q, 0);
    if (atomic_load_explicit(&q->sp_flags.b.splitreq, ws_relaxed))
      atomic_store_explicit(&q->sp_flags.b.splitreq, 0, ws_relaxed);
  } else if (atomic_load_explicit(&q->sp_flags.b.splitreq, ws_relaxed)) {
    ws_split_grow_shared(q, head);
  }
}

/* All remaining tasks are shared: take half back.  Returns 1 when thieves
 * had stolen everything (the task at head-1 is stolen). */
static int shrink_shared(ws_dq *q) {
  uint64_t ts = atomic_load_explicit(&q->ts, ws_acquire);
  uint32_t t = (uint32_t)ts, s = (uint32_t)(ts >> 32);
  if (t != s) {
    uint32_t new_s = (t + s) / 2;
    /* split := new_s; MFENCE (Fig. 4 line 47), as one xchg */
    WS_STORE_FENCED(split_half(q), new_s);
    q->o_split = q->base + new_s;
    t = atomic_load_explicit(tail_half(q), ws_seq_cst); /* read again */
    if (t != s) {
      if (t > new_s) { /* thieves got past the new split point */
        new_s = (t + s) / 2;
        atomic_store_explicit(split_half(q), new_s, ws_release);
        q->o_split = q->base + new_s;
      }
      return 0;
    }
  }
  set_allstolen(q, 1);
  return 1;
}

/* The take of slot t found no private task (Fig. 4 pop, lines 33-38). */
__attribute__((noinline)) int ws_split_take_shared(ws_dq *q, ws_slot *t) {
  if (q->o_split == WS_ALLSTOLEN || shrink_shared(q))
    return 1; /* stolen */
  if (atomic_load_explicit(&q->sp_flags.b.splitreq, ws_relaxed))
    ws_split_grow_shared(q, t);
  return 0;
}

static ws_slot *split_steal(ws_dq *q, ws_worker *thief) {
  (void)thief;
  if (atomic_load_explicit(&q->allstolen, ws_acquire))
    return WS_EMPTY;
  uint64_t ts = atomic_load_explicit(&q->ts, ws_acquire);
  uint32_t t = (uint32_t)ts, s = (uint32_t)(ts >> 32);
  if (t < s) {
    if (atomic_compare_exchange_strong_explicit(&q->ts, &ts, ts + 1,
                                                ws_seq_cst, ws_relaxed))
      return q->base + t;
    return WS_ABORT; /* lost to another thief or to the owner's split move */
  }
  if (!atomic_load_explicit(&q->sp_flags.b.splitreq, ws_relaxed))
    atomic_store_explicit(&q->sp_flags.b.splitreq, 1, ws_relaxed);
  return WS_EMPTY;
}

/* After the join of stolen slot t (Fig. 4 pop_stolen): every task below t
 * was stolen too. */
static void split_reset(ws_dq *q, ws_slot *t) {
  ws_store_tail(q, t);
  if (q->o_split != WS_ALLSTOLEN)
    set_allstolen(q, 1);
}

static int split_init(ws_dq *q, ws_worker *w, size_t capacity) {
  if (capacity > (1UL << 31) || ws_slots_alloc(q, w, capacity))
    return -1;
  atomic_init(&q->ts, 0);
  atomic_init(&q->sp_flags.any, 0);
  set_allstolen(q, 1);
  return 0;
}

static void split_push_op(ws_dq *q, ws_slot *t) { split_push(q, 0, t); }
static int split_take_op(ws_dq *q, ws_slot *t) { return split_take(q, 0, t); }

const ws_deque_ops ws_ops_split = {
    WS_OPS_ROW(split),
    .init = split_init,
    .push = split_push_op,
    .take = split_take_op,
    .steal = split_steal,
    .reset = split_reset,
};

#endif
