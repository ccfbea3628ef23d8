/*
 * omp/lock.h — the one lock of the OpenMP module (lock.c): a futex word,
 * 0 free, 1 held, 2 held with waiters (Drepper, "Futexes Are Tricky").
 * critical sections keep it in their kmp_critical_name, omp_lock_t in
 * its own word, nested locks and the team machinery in theirs.  Waiting
 * for it is no task scheduling point: a waiter spins a little, then
 * sleeps.
 */
#ifndef WS_OMP_LOCK_H
#define WS_OMP_LOCK_H

#include <stdatomic.h>
#include <stdint.h>

void ws_omp_lock_wait(_Atomic uint32_t *w);
void ws_omp_lock_wake(_Atomic uint32_t *w);

static inline void ws_omp_lock(_Atomic uint32_t *w) {
  uint32_t free_ = 0;
  if (!atomic_compare_exchange_strong_explicit(w, &free_, 1, memory_order_acquire,
                                               memory_order_relaxed))
    ws_omp_lock_wait(w);
}

static inline int ws_omp_trylock(_Atomic uint32_t *w) {
  uint32_t free_ = 0;
  return atomic_compare_exchange_strong_explicit(w, &free_, 1, memory_order_acquire,
                                                 memory_order_relaxed);
}

static inline void ws_omp_unlock(_Atomic uint32_t *w) {
  if (atomic_exchange_explicit(w, 0, memory_order_release) == 2)
    ws_omp_lock_wake(w);
}

#endif
