/*
 * race.h — -fws-race: the determinacy races of one run (docs/race.md).
 *
 * A program built with -fws-race runs on one worker, in wsff's own order:
 * a spawn's continuation first, its child at the sync (children taken back
 * most recent first).  Every memory access of the program's code reaches
 * this runtime through ThreadSanitizer's instrumentation (__tsan_read4 and
 * so on: only the instrumentation is used, not TSan's runtime), and is
 * checked against the last writer and reader of each byte with SP-bags
 * (Feng and Leiserson, SPAA'97) adapted to that order: two accesses race
 * when their strands are logically parallel and one of them writes.
 *
 *   bags.c    strands, the S- and P-bags of each procedure, spawn/sync
 *   shadow.c  the last accesses of every byte, and their check
 *   access.c  the __tsan_* entry points
 *   report.c  what a race report says, and the exit status
 *   heap.c    freed memory forgets its accesses
 *   checked.c which code is checked
 *   stacks.c  call stacks
 *   init.c    start-up
 * Layers, bottom up: checked and stacks; bags; report; shadow; access,
 * heap and init (no file calls one above it).
 */
#ifndef WS_RACE_H
#define WS_RACE_H

#include <stddef.h>
#include <stdint.h>

#include "../worker.h"

/* The checker's own memory comes from glibc's allocator itself, not
 * through the program's free and realloc (heap.c), which would make the
 * checker's blocks forget accesses. */
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);
static inline void *ws_race_realloc(void *p, size_t n) { return __libc_realloc(p, n); }
static inline void ws_race_free(void *p) { __libc_free(p); }

/* A strand: a node of the union-find of bags.  0: none. */
typedef uint32_t ws_strand;

/* ---- bags.c ---- */

/* The strand running now (the current segment of the innermost
 * procedure). */
extern ws_strand ws_race_current;
/* Does strand s run logically in parallel with the current one (is its
 * bag a P-bag)?  The answers for the last strands asked about hold until
 * the next union of bags. */
typedef struct ws_race_answer {
  ws_strand s;
  uint32_t version;
  int parallel;
} ws_race_answer;
enum { WS_RACE_ANSWERS = 1024 };
extern ws_race_answer ws_race_answers[WS_RACE_ANSWERS];
extern uint32_t ws_race_version;
int ws_race_parallel_slow(ws_strand s);
static inline int ws_race_parallel(ws_strand s) {
  const ws_race_answer *a = &ws_race_answers[s & (WS_RACE_ANSWERS - 1)];
  if (a->s == s && a->version == ws_race_version)
    return a->parallel;
  return ws_race_parallel_slow(s);
}
/* For a report: the spawn whose child made s parallel with the current
 * strand, and the call stack s began in. */
uintptr_t ws_race_spawn_of(ws_strand s);
uint32_t ws_race_stack_of(ws_strand s);

/* ---- the checking thread, and code that is not checked (checked.c) ---- */

/* Only the thread that runs the computation (the main thread) is checked;
 * the runtime's own work and the reducers' callbacks are not. */
extern __thread int ws_race_checked __attribute__((tls_model("initial-exec")));
void ws_race_ignore_begin(void);
void ws_race_ignore_end(void);

/* ---- call stacks (stacks.c) ---- */

void ws_race_stack_push(uintptr_t call_site);
void ws_race_stack_pop(void);
/* The current stack's call sites, innermost first, at most n. */
int ws_race_stack_now(uintptr_t *pcs, int n);
/* The current stack as one id (kept by a strand that begins here). */
uint32_t ws_race_stack_id(void);
/* Stack `below` with one more call site on top. */
uint32_t ws_race_stack_with(uint32_t below, uintptr_t call_site);
/* The call sites of stack id, innermost first, at most n. */
int ws_race_stack_frames(uint32_t id, uintptr_t *pcs, int n);

/* ---- shadow.c ---- */

void ws_race_shadow_init(void);
void ws_race_read(uintptr_t addr, size_t size, uintptr_t pc);
void ws_race_write(uintptr_t addr, size_t size, uintptr_t pc);
/* [addr, addr+size) is dead (a freed block). */
void ws_race_forget(uintptr_t addr, size_t size);
/* The checked thread's stack; a frame whose top was `top` returned: the
 * stack below it forgets its accesses. */
void ws_race_stack_init(uintptr_t lo, size_t size);
void ws_race_frame_returned(uintptr_t top);

/* ---- report.c ---- */

enum ws_race_kind { WS_RACE_WRITE_WRITE, WS_RACE_WRITE_READ, WS_RACE_READ_WRITE };
/* The current access (pc, in the current stack) races with an earlier one
 * by strand `earlier` at earlier_pc (0: unknown). */
void ws_race_found(enum ws_race_kind kind, uintptr_t addr, uintptr_t pc,
                   ws_strand earlier, uintptr_t earlier_pc);
/* Reads WS_RACE_HALT and WS_RACE_LOG; installs the exit status check. */
void ws_race_report_init(void);

/* ---- the runtime's side (views.c, the pass's calls) ---- */

/* A procedure that spawns begins (its entry tail) and ends. */
void __ws_race_enter(ws_slot *tail);
void __ws_race_leave(void);
/* A spawn was pushed at slot. */
void __ws_race_spawn(ws_slot *slot);
/* The child at slot runs at the sync, and is done (views.c calls these
 * from __ws_child_begin and __ws_child_end). */
void ws_race_child_begin(ws_slot *slot);
void ws_race_child_end(void);

#endif
