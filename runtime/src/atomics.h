/*
 * atomics.h — the few memory-ordering primitives the deques are built from.
 *
 * Every shared variable is a C11 atomic.  On x86 (TSO) relaxed, acquire and
 * release accesses are plain moves; what costs is the full fence.
 */
#ifndef WS_ATOMICS_H
#define WS_ATOMICS_H

#include <stdatomic.h>
#include <stdint.h>

#include "config.h"

#define ws_relaxed memory_order_relaxed
#define ws_acquire memory_order_acquire
#define ws_release memory_order_release
#define ws_seq_cst memory_order_seq_cst
#define ws_acq_rel memory_order_acq_rel

#define ws_likely(x) __builtin_expect(!!(x), 1)
#define ws_unlikely(x) __builtin_expect(!!(x), 0)

/* Store followed by a full fence (the flag principle, paper 000 §3.2).
 * Default: one xchg, the cheapest full fence on x86 (4.7 ns against 12.6 ns
 * for mov+mfence and 7.0 ns for mov+lock-or on the development machine).
 * WS_FENCE_MFENCE builds the mov+mfence form of the paper's CilkPlus setting.
 * Loads that must not pass the fence use ws_seq_cst, which is a plain mov. */
#if defined(WS_FENCE_MFENCE) && WS_TSO
#define WS_STORE_FENCED(p, v)                                                  \
  do {                                                                         \
    atomic_store_explicit((p), (v), ws_relaxed);                               \
    __asm__ volatile("mfence" ::: "memory");                                   \
  } while (0)
#define WS_FENCE_NAME "mfence"
#else
#define WS_STORE_FENCED(p, v) ((void)atomic_exchange_explicit((p), (v), ws_seq_cst))
#if WS_TSO
#define WS_FENCE_NAME "xchg"
#elif defined(__aarch64__)
#define WS_FENCE_NAME "swpal+ldar" /* or ldaxr/stlxr+ldar without LSE */
#else
#define WS_FENCE_NAME "seq_cst"
#endif
#endif

/* No instruction; stops the compiler from moving memory accesses across. */
#define WS_COMPILER_BARRIER() atomic_signal_fence(ws_seq_cst)

/* Marks the worker's publishing store of a take() (T := t) in the final
 * code, so the store-count analysis finds every take site after inlining.
 * It is also a compiler barrier: the T store can be neither moved past the
 * following load of H nor merged with another store to T. */
#if WS_TSO
#define WS_TAKE_MARK() __asm__ volatile("# ws.take" ::: "memory")
#else
#define WS_TAKE_MARK() WS_COMPILER_BARRIER()
#endif

/* The owner's relaxed reads of words thieves write (H, a thief's request),
 * on its fast paths, in a form the compiler folds into the compare that
 * uses them: clang folds a volatile load into a cmp, not an atomic one.
 * x86 reads an aligned word of these sizes in one access, which is all a
 * relaxed atomic load gives; the compiler neither merges nor removes a
 * volatile read.  A read of part of a word (the low half of H) is one
 * access to that part. */
static inline uint32_t ws_peek32(const volatile void *p) {
  return *(const volatile uint32_t *)p;
}
static inline uint16_t ws_peek16(const volatile void *p) {
  return *(const volatile uint16_t *)p;
}
static inline uint8_t ws_peek8(const volatile void *p) {
  return *(const volatile uint8_t *)p;
}

static inline void ws_cpu_relax(void) {
#if WS_TSO
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield" ::: "memory");
#else
  WS_COMPILER_BARRIER();
#endif
}

#endif
