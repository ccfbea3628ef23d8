/*
 * access.c — the entry points the instrumentation calls (ws/race_abi.def,
 * passes/RaceInstrument.cpp): the checks of the program's memory accesses,
 * the call stack, the end of a variable-length array's scope.  The usual
 * access — one that changes nothing (shadow.h) — is told here without a
 * further call; any other goes to shadow.c.
 * Atomic operations are not instrumented: they never race.
 */
#include "shadow.h"

WS_RACE_NO_LIBCALLS_BEGIN

#define PC ((uintptr_t)__builtin_return_address(0))

/* An access of n bytes (1, 2, 4 or 8): checked here when it changes
 * nothing, else by shadow.c. */
#define CHECK(a, n, write)                                                     \
  do {                                                                         \
    ws_strand me_ = ws_race_me;                                                \
    uintptr_t x_ = (uintptr_t)(a);                                             \
    if (__builtin_expect(!me_, 0) ||                                           \
        __builtin_expect(ws_race_unchanged(x_, n, me_, write), 1))             \
      return;                                                                  \
    if (write)                                                                 \
      ws_race_write(x_, n, PC);                                                \
    else                                                                       \
      ws_race_read(x_, n, PC);                                                 \
  } while (0)

/* 16 bytes: two granules when aligned. */
#define CHECK16(a, write)                                                      \
  do {                                                                         \
    ws_strand me_ = ws_race_me;                                                \
    uintptr_t x_ = (uintptr_t)(a);                                             \
    if (__builtin_expect(!me_, 0) ||                                           \
        (ws_race_unchanged(x_, 8, me_, write) &&                               \
         ws_race_unchanged(x_ + 8, 8, me_, write)))                            \
      return;                                                                  \
    if (write)                                                                 \
      ws_race_write(x_, 16, PC);                                               \
    else                                                                       \
      ws_race_read(x_, 16, PC);                                                \
  } while (0)

/* ---- -fws-race's own instrumentation (ws/race_abi.def) ---- */

void __ws_race_read1(void *a) { CHECK(a, 1, 0); }
void __ws_race_read2(void *a) { CHECK(a, 2, 0); }
void __ws_race_read4(void *a) { CHECK(a, 4, 0); }
void __ws_race_read8(void *a) { CHECK(a, 8, 0); }
void __ws_race_read16(void *a) { CHECK16(a, 0); }
void __ws_race_write1(void *a) { CHECK(a, 1, 1); }
void __ws_race_write2(void *a) { CHECK(a, 2, 1); }
void __ws_race_write4(void *a) { CHECK(a, 4, 1); }
void __ws_race_write8(void *a) { CHECK(a, 8, 1); }
void __ws_race_write16(void *a) { CHECK16(a, 1); }

/* A loop's accesses (and a range: count 1, stride = size), remembered
 * once the current strand checked them: while no other strand has run and
 * no memory has forgotten its accesses since (ws_race_generation says),
 * checking them again finds nothing new — only this strand changed the
 * shadow meanwhile.  A loop run again (a matrix row read once per row of
 * the result) is checked once. */
typedef struct seen {
  uintptr_t x;
  int64_t stride;
  uint64_t size, count;
  uint32_t generation, write;
} seen;
enum { SEEN = 256 };
static seen checked_loops[SEEN];

static inline seen *seen_slot(uintptr_t x, int64_t stride) {
  return &checked_loops[((x >> 3) ^ (x >> 11) ^ (uint64_t)stride) & (SEEN - 1)];
}

static inline void loop_check(uintptr_t x, uint64_t size, int64_t stride, uint64_t count,
                              uintptr_t pc, int write) {
  ws_strand me = ws_race_me;
  if (!me)
    return;
  seen *e = seen_slot(x, stride);
  if (e->generation == ws_race_generation && e->x == x && e->stride == stride &&
      e->size == size && e->count == count && e->write >= (uint32_t)write)
    return;
  if (!ws_race_strided_unchanged(x, size, stride, count, me, write))
    ws_race_strided(x, size, stride, count, pc, write);
  *e = (seen){x, stride, size, count, ws_race_generation, (uint32_t)write};
}

/* A range that a C library function reads or writes (intercept.c): a
 * memcpy the instrumentation checked just before (its own range check
 * before a call of the intrinsic) is told here at once. */
void ws_race_range(uintptr_t x, size_t n, uintptr_t pc, int write) {
  if (n)
    loop_check(x, n, (int64_t)n, 1, pc, write);
}

void __ws_race_read_n(void *a, uint64_t n) {
  if (n)
    loop_check((uintptr_t)a, n, (int64_t)n, 1, PC, 0);
}
void __ws_race_write_n(void *a, uint64_t n) {
  if (n)
    loop_check((uintptr_t)a, n, (int64_t)n, 1, PC, 1);
}

/* A loop's accesses, checked before it: count of size bytes, stride apart
 * (stride may be negative; a dense loop is one range). */
void __ws_race_read_strided(void *a, uint64_t size, int64_t stride, uint64_t count) {
  loop_check((uintptr_t)a, size, stride, count, PC, 0);
}
void __ws_race_write_strided(void *a, uint64_t size, int64_t stride, uint64_t count) {
  loop_check((uintptr_t)a, size, stride, count, PC, 1);
}

/* Calls: the stack of call sites, for reports.  A returning frame's
 * memory is forgotten when a child is about to run there (hooks.c). */
void __ws_race_func_entry(void *call_site) {
  if (ws_race_me)
    ws_race_stack_push((uintptr_t)call_site);
}
void __ws_race_func_exit(void) {
  if (ws_race_me)
    ws_race_stack_pop();
}

/* The caller restored its stack pointer (a variable-length array's scope
 * ended): what lies below it — below this call's return address — is
 * free, and a later strand may use it. */
void __ws_race_stack_restored(void) {
  if (ws_race_me)
    ws_race_stack_dead_below((uintptr_t)__builtin_frame_address(0) + 16);
}

WS_RACE_NO_LIBCALLS_END
