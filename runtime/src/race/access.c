/*
 * access.c — the entry points ThreadSanitizer's instrumentation calls
 * (LLVM 19's ThreadSanitizer pass, -fsanitize=thread without its runtime:
 * ws-clang links this one instead).  Plain accesses are checked; atomic
 * operations are performed and never race.  The serial run reuses the
 * stack for strands that are logically parallel: the lowest stack address
 * accessed is kept, and a returning function's frame, and everything below
 * it, forgets its accesses.
 */
#include <string.h>

#include "race.h"

#define PC ((uintptr_t)__builtin_return_address(0))
#define CHECKED __builtin_expect(ws_race_checked > 0, 1)

#define READ(a, n) ws_race_read((uintptr_t)(a), n, PC)
#define WRITE(a, n) ws_race_write((uintptr_t)(a), n, PC)

#define ACCESSES(n)                                                            \
  void __tsan_read##n(void *a) {                                               \
    if (CHECKED)                                                               \
      READ(a, n);                                       \
  }                                                                            \
  void __tsan_write##n(void *a) {                                              \
    if (CHECKED)                                                               \
      WRITE(a, n);                                      \
  }                                                                            \
  void __tsan_unaligned_read##n(void *a) {                                     \
    if (CHECKED)                                                               \
      READ(a, n);                                       \
  }                                                                            \
  void __tsan_unaligned_write##n(void *a) {                                    \
    if (CHECKED)                                                               \
      WRITE(a, n);                                      \
  }                                                                            \
  void __tsan_volatile_read##n(void *a) {                                      \
    if (CHECKED)                                                               \
      READ(a, n);                                       \
  }                                                                            \
  void __tsan_volatile_write##n(void *a) {                                     \
    if (CHECKED)                                                               \
      WRITE(a, n);                                      \
  }                                                                            \
  void __tsan_unaligned_volatile_read##n(void *a) {                            \
    if (CHECKED)                                                               \
      READ(a, n);                                       \
  }                                                                            \
  void __tsan_unaligned_volatile_write##n(void *a) {                           \
    if (CHECKED)                                                               \
      WRITE(a, n);                                      \
  }                                                                            \
  void __tsan_read_write##n(void *a) {                                         \
    if (CHECKED) {                                                             \
      READ(a, n);                                       \
      WRITE(a, n);                                      \
    }                                                                          \
  }                                                                            \
  void __tsan_unaligned_read_write##n(void *a) {                               \
    if (CHECKED) {                                                             \
      READ(a, n);                                       \
      WRITE(a, n);                                      \
    }                                                                          \
  }
ACCESSES(1)
ACCESSES(2)
ACCESSES(4)
ACCESSES(8)
ACCESSES(16)

void __tsan_read_range(void *a, unsigned long n) {
  if (CHECKED)
    READ(a, n);
}
void __tsan_write_range(void *a, unsigned long n) {
  if (CHECKED)
    WRITE(a, n);
}

/* A virtual table pointer: an ordinary word. */
void __tsan_vptr_update(void **vptr, void *value) {
  (void)value;
  if (CHECKED)
    ws_race_write((uintptr_t)vptr, sizeof *vptr, PC);
}
void __tsan_vptr_read(void **vptr) {
  if (CHECKED)
    ws_race_read((uintptr_t)vptr, sizeof *vptr, PC);
}

void *__tsan_memcpy(void *d, const void *s, unsigned long n) {
  if (CHECKED) {
    ws_race_read((uintptr_t)s, n, PC);
    ws_race_write((uintptr_t)d, n, PC);
  }
  return memcpy(d, s, n);
}
void *__tsan_memmove(void *d, const void *s, unsigned long n) {
  if (CHECKED) {
    ws_race_read((uintptr_t)s, n, PC);
    ws_race_write((uintptr_t)d, n, PC);
  }
  return memmove(d, s, n);
}
void *__tsan_memset(void *d, int c, unsigned long n) {
  if (CHECKED)
    ws_race_write((uintptr_t)d, n, PC);
  return memset(d, c, n);
}

/* Calls: the stack of call sites, for reports; the returning function's
 * frame is [what we were called below, its saved frame pointer + 16): it
 * keeps one (-fws-race compiles with frame pointers). */
void __tsan_func_entry(void *call_site) {
  if (CHECKED)
    ws_race_stack_push((uintptr_t)call_site);
}
void __tsan_func_exit(void) {
  if (!CHECKED)
    return;
  ws_race_stack_pop();
  ws_race_frame_returned(*(uintptr_t *)__builtin_frame_address(0) + 16);
}

/* ---- -fws-race's own instrumentation (ws/race_abi.def) ---- */

#define WS_ACCESSES(n)                                                         \
  void __ws_race_read##n(void *a) {                                            \
    if (CHECKED)                                                               \
      READ(a, n);                                                              \
  }                                                                            \
  void __ws_race_write##n(void *a) {                                           \
    if (CHECKED)                                                               \
      WRITE(a, n);                                                             \
  }
WS_ACCESSES(1)
WS_ACCESSES(2)
WS_ACCESSES(4)
WS_ACCESSES(8)
WS_ACCESSES(16)

void __ws_race_read_n(void *a, uint64_t n) {
  if (CHECKED && n)
    READ(a, n);
}
void __ws_race_write_n(void *a, uint64_t n) {
  if (CHECKED && n)
    WRITE(a, n);
}

/* A loop's accesses, checked before it: count of size bytes, stride apart
 * (a dense one is one range). */
static void strided(uintptr_t a, uint64_t size, int64_t stride, uint64_t count,
                    uintptr_t pc, int write) {
  if (!count || !size)
    return;
  if ((uint64_t)(stride < 0 ? -stride : stride) == size) {
    uintptr_t lo = stride < 0 ? a - (count - 1) * size : a;
    write ? ws_race_write(lo, count * size, pc) : ws_race_read(lo, count * size, pc);
    return;
  }
  for (uint64_t i = 0; i < count; i++, a += (uintptr_t)stride)
    write ? ws_race_write(a, size, pc) : ws_race_read(a, size, pc);
}
void __ws_race_read_strided(void *a, uint64_t size, int64_t stride, uint64_t count) {
  if (CHECKED)
    strided((uintptr_t)a, size, stride, count, PC, 0);
}
void __ws_race_write_strided(void *a, uint64_t size, int64_t stride, uint64_t count) {
  if (CHECKED)
    strided((uintptr_t)a, size, stride, count, PC, 1);
}

void __ws_race_func_entry(void *call_site) {
  if (CHECKED)
    ws_race_stack_push((uintptr_t)call_site);
}
void __ws_race_func_exit(void) {
  if (!CHECKED)
    return;
  ws_race_stack_pop();
  ws_race_frame_returned(*(uintptr_t *)__builtin_frame_address(0) + 16);
}
/* The caller restored its stack pointer (a variable-length array's scope
 * ended): what lies below it is free, and a later strand may use it. */
void __ws_race_stack_restored(void) {
  if (CHECKED)
    ws_race_frame_returned((uintptr_t)__builtin_frame_address(0) + 16);
}

void __tsan_ignore_thread_begin(void) { ws_race_ignore_begin(); }
void __tsan_ignore_thread_end(void) { ws_race_ignore_end(); }

/* ---- atomic operations: performed, never a race ---- */

typedef unsigned char a8;
typedef unsigned short a16;
typedef unsigned int a32;
typedef unsigned long long a64;
typedef unsigned __int128 a128;

#define ATOMICS(bits, T)                                                       \
  T __tsan_atomic##bits##_load(const volatile T *a, int mo) {                  \
    (void)mo;                                                                  \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                               \
  }                                                                            \
  void __tsan_atomic##bits##_store(volatile T *a, T v, int mo) {               \
    (void)mo;                                                                  \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                  \
  }                                                                            \
  T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo) {               \
    (void)mo;                                                                  \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                        \
  }                                                                            \
  T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo) {              \
    (void)mo;                                                                  \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                         \
  }                                                                            \
  T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo) {              \
    (void)mo;                                                                  \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                         \
  }                                                                            \
  T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo) {              \
    (void)mo;                                                                  \
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                         \
  }                                                                            \
  T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo) {               \
    (void)mo;                                                                  \
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                          \
  }                                                                            \
  T __tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int mo) {              \
    (void)mo;                                                                  \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                         \
  }                                                                            \
  T __tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int mo) {             \
    (void)mo;                                                                  \
    return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                        \
  }                                                                            \
  int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v,  \
                                                    int mo, int fail) {        \
    (void)mo, (void)fail;                                                      \
    return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST,           \
                                       __ATOMIC_SEQ_CST);                      \
  }                                                                            \
  int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v,    \
                                                  int mo, int fail) {          \
    (void)mo, (void)fail;                                                      \
    return __atomic_compare_exchange_n(a, c, v, 1, __ATOMIC_SEQ_CST,           \
                                       __ATOMIC_SEQ_CST);                      \
  }                                                                            \
  T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v,        \
                                               int mo, int fail) {             \
    (void)mo, (void)fail;                                                      \
    __atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST,                 \
                                __ATOMIC_SEQ_CST);                             \
    return c;                                                                  \
  }
ATOMICS(8, a8)
ATOMICS(16, a16)
ATOMICS(32, a32)
ATOMICS(64, a64)

/* 16-byte atomics under a lock (no libatomic needed). */
static char lock128;
static void take128(void) {
  while (__atomic_test_and_set(&lock128, __ATOMIC_ACQUIRE))
    ;
}
static void give128(void) { __atomic_clear(&lock128, __ATOMIC_RELEASE); }
#define RMW128(op, expr)                                                       \
  a128 __tsan_atomic128_##op(volatile a128 *a, a128 v, int mo) {               \
    (void)mo;                                                                  \
    take128();                                                                 \
    a128 old = *a;                                                             \
    *a = (expr);                                                               \
    give128();                                                                 \
    return old;                                                                \
  }
RMW128(exchange, v)
RMW128(fetch_add, old + v)
RMW128(fetch_sub, old - v)
RMW128(fetch_and, old & v)
RMW128(fetch_or, old | v)
RMW128(fetch_xor, old ^ v)
RMW128(fetch_nand, ~(old & v))
a128 __tsan_atomic128_load(const volatile a128 *a, int mo) {
  (void)mo;
  take128();
  a128 v = *a;
  give128();
  return v;
}
void __tsan_atomic128_store(volatile a128 *a, a128 v, int mo) {
  (void)mo;
  take128();
  *a = v;
  give128();
}
static int cas128(volatile a128 *a, a128 *c, a128 v) {
  take128();
  int same = *a == *c;
  if (same)
    *a = v;
  else
    *c = *a;
  give128();
  return same;
}
int __tsan_atomic128_compare_exchange_strong(volatile a128 *a, a128 *c, a128 v, int mo,
                                             int fail) {
  (void)mo, (void)fail;
  return cas128(a, c, v);
}
int __tsan_atomic128_compare_exchange_weak(volatile a128 *a, a128 *c, a128 v, int mo,
                                           int fail) {
  (void)mo, (void)fail;
  return cas128(a, c, v);
}
a128 __tsan_atomic128_compare_exchange_val(volatile a128 *a, a128 c, a128 v, int mo,
                                           int fail) {
  (void)mo, (void)fail;
  cas128(a, &c, v);
  return c;
}

void __tsan_atomic_thread_fence(int mo) {
  (void)mo;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void __tsan_atomic_signal_fence(int mo) {
  (void)mo;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
