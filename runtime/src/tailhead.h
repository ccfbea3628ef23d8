/*
 * tailhead.h — what THE, Chase-Lev, FF-THE, FF-CL and THEP share: the
 * layout of paper 000 Fig. 2a (a tail T the owner moves, a head H thieves
 * move) over slot addresses, and its put().
 *
 * T holds the owner's tail slot.  H packs a 32-bit tag with the low 32 bits
 * of the head slot's address: the slots of one deque span less than 2^31
 * bytes (WS_MAX_DEQUE_SIZE), so the low halves order them exactly, and the
 * owner's test t >= h is one 32-bit compare.  The tag is THEP's heartbeat
 * counter s (Fig. 5), and Chase-Lev's reset counter, which keeps a thief's
 * CAS from succeeding across a reset (the head moves down again when the
 * owner joins a stolen slot, see reset below); THE and FF-THE leave it 0.
 */
#ifndef WS_TAILHEAD_H
#define WS_TAILHEAD_H

#include <sched.h>

#include "worker.h"

static inline uint32_t ws_lo32(const ws_slot *p) { return (uint32_t)(uintptr_t)p; }
static inline uint32_t ws_th_tag(uint64_t H) { return (uint32_t)(H >> 32); }
static inline uint64_t ws_th_pack(uint32_t tag, const ws_slot *h) {
  return ((uint64_t)tag << 32) | ws_lo32(h);
}
/* t - h in slots (negative when t is below h); the slots are 64 bytes, and
 * the byte distance is a multiple of 64, so the shift is exact. */
static inline int32_t ws_th_dist(const ws_slot *t, uint64_t H) {
  return (int32_t)(ws_lo32(t) - (uint32_t)H) >> 6;
}
/* The owner's read of h: the low half of H (x86 is little-endian), all
 * its tests need. */
static inline uint32_t ws_th_peek_head(const ws_dq *q) { return ws_peek32(&q->H); }
/* The same read after the owner's WS_STORE_FENCED(&q->T, t) (THE,
 * Chase-Lev): it must not be satisfied before the T store is visible.  On
 * x86 the xchg is a full fence, which no later load passes: the plain read.
 * On a weak-memory processor the exchange alone does not order a later
 * plain load: ARMv8's exchange without LSE (ldaxr/stlxr, Cortex-A53/A72)
 * lets an ldr be satisfied before the stlxr is visible, and owner and
 * thief both take the last task.  A seq_cst load after the seq_cst
 * exchange is ordered (C11; ldar after stlxr or swpal, RCsc). */
static inline uint32_t ws_th_peek_head_fenced(ws_dq *q) {
#if WS_TSO
  return ws_peek32(&q->H);
#else
  return (uint32_t)atomic_load_explicit(&q->H, ws_seq_cst);
#endif
}

/* The owner's tests t >= h and t > h, as cheap as a pointer compare. */
static inline int ws_th_at_or_above(const ws_slot *t, uint64_t H) {
  return (int32_t)(ws_lo32(t) - (uint32_t)H) >= 0;
}
static inline int ws_th_above(const ws_slot *t, uint64_t H) {
  return (int32_t)(ws_lo32(t) - (uint32_t)H) > 0;
}
/* The head slot of H. */
static inline ws_slot *ws_th_head(const ws_dq *q, uint64_t H) {
  return (ws_slot *)((char *)q->base + (uint32_t)((uint32_t)H - ws_lo32(q->base)));
}

/* put() of Fig. 2a: compiled code has written the task into slot t (had t
 * been past the end, that write faulted in the guard page: slots.c);
 * publish it by moving T past it.  TSO keeps the slot's stores before T's;
 * release says so to the compiler. */
static inline __attribute__((always_inline)) void ws_th_push(ws_dq *q,
                                                             ws_slot *t) {
  ws_store_tail(q, t + 1);
}

#ifndef WS_FASTPATH_ONLY
int ws_th_init(ws_dq *q, ws_worker *w, size_t capacity);
void ws_th_push_op(ws_dq *q, ws_slot *t);

/* The per-deque lock of THE-style thieves (test and test-and-set). */
static inline void ws_th_lock(ws_dq *q) {
  unsigned spins = 0;
  for (;;) {
    if (!atomic_load_explicit(&q->lock, ws_relaxed) &&
        !atomic_exchange_explicit(&q->lock, 1, ws_acquire))
      return;
    if (++spins % 64 == 0)
      sched_yield(); /* the holder may be descheduled: more workers than cores */
    else
      ws_cpu_relax();
  }
}
static inline void ws_th_unlock(ws_dq *q) {
  atomic_store_explicit(&q->lock, 0, ws_release);
}

/* After the join of stolen slot t (THE, FF-THE, THEP): every task below t
 * was stolen before t, and the owner took back all it pushed above, so the
 * deque is empty; move it down to t under the lock, which orders the move
 * with every thief's H := h + 1.  The tag (THEP's s) stays. */
void ws_th_reset_locked(ws_dq *q, ws_slot *t);
#endif

#endif
