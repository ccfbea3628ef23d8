/*
 * race.h — -fws-race: the determinacy races of one run (docs/race.md).
 *
 * A program built with -fws-race runs on one worker, in wsff's own order:
 * a spawn's continuation first, its child at the sync (children taken back
 * most recent first).  Every memory access of the program's code that
 * another strand may reach calls this runtime (ws/race_abi.def: the
 * plugin's ws-race-instrument pass), as do the C library's memory and
 * string functions (intercept.c), and is checked against the last writer
 * and reader of each byte with SP-bags (Feng and Leiserson, SPAA'97)
 * adapted to that order: two accesses race when their strands are
 * logically parallel and one of them writes.
 *
 *   checked.c   which thread and which code is checked
 *   callstack.c call stacks
 *   bags.c      strands, the S- and P-bags of each procedure
 *   report.c    what a race report says, and the exit status
 *   shadow.c    the last accesses of every byte, and their checks
 *   access.c    the entry points the instrumentation calls
 *   intercept.c the C library's functions that access the program's memory
 *   heap.c      freed memory forgets its accesses
 *   collect.c   strands and call stacks no longer referenced are reclaimed
 *   hooks.c     the runtime's calls: a procedure, a spawn, a child
 *   init.c      start-up
 * Layers, bottom up: checked and callstack; bags; report; shadow and
 * collect; access, intercept and heap; hooks and init (no file calls one
 * above it).  shadow.c and collect.c call each other: the shadow starts a
 * collection where no strand number is held (before it makes a strand),
 * and the collection reads and renumbers the shadow.
 *
 * The checker's own code calls no function that intercept.c defines
 * (memcpy, memset, strlen...): it would check the checker's memory.  The
 * lit test race/own-calls.test looks for such calls in libws_race.
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
void *__libc_calloc(size_t n, size_t size);
void __libc_free(void *p);
static inline void *ws_race_realloc(void *p, size_t n) { return __libc_realloc(p, n); }
static inline void *ws_race_calloc(size_t n, size_t size) { return __libc_calloc(n, size); }
static inline void ws_race_free(void *p) { __libc_free(p); }
/* Around the checker's code: the compiler makes no call of memset or
 * memcpy of its loops (see above). */
#if defined(__clang__)
#define WS_RACE_NO_LIBCALLS_BEGIN                                              \
  _Pragma("clang attribute push(__attribute__((no_builtin)), apply_to = function)")
#define WS_RACE_NO_LIBCALLS_END _Pragma("clang attribute pop")
#else
#define WS_RACE_NO_LIBCALLS_BEGIN                                              \
  _Pragma("GCC push_options") _Pragma("GCC optimize(\"no-tree-loop-distribute-patterns\")")
#define WS_RACE_NO_LIBCALLS_END _Pragma("GCC pop_options")
#endif
/* Zeroing without memset (see above). */
static inline void ws_race_zero(void *p, size_t n) {
  unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    __asm__("" ::: "memory"); /* not turned into a call of memset */
    b[i] = 0;
  }
}

/* A strand: a node of the union-find of bags.  0: none. */
typedef uint32_t ws_strand;
/* ws_race_me while the current strand is not made yet (bags.c): no
 * granule names it, so every access takes the slow path, which makes it. */
#define WS_RACE_PENDING 0xfffffffeu

/* ---- the checking thread, and code that is not checked (checked.c) ---- */

/* The strand that runs now, on the thread that is checked while it is
 * checked; 0 on every other thread, and while the checks are off (the
 * runtime's own work, the reducers' callbacks, a report): the first thing
 * every entry point reads. */
extern __thread ws_strand ws_race_me __attribute__((tls_model("local-exec")));
/* 1 on the thread that is checked (the main thread), checks on or off. */
extern __thread int ws_race_thread __attribute__((tls_model("initial-exec")));
/* The checks have started (on the main thread). */
extern int ws_race_started;
/* How many ignore_begin are open on the checked thread; the strand it
 * runs (what ws_race_me is while none is). */
extern int ws_race_ignored;
extern ws_strand ws_race_running;
/* Does the checked thread run checked code now (the hooks' test)? */
static inline int ws_race_on(void) { return ws_race_thread && !ws_race_ignored; }
void ws_race_ignore_begin(void);
void ws_race_ignore_end(void);
/* Pairs (shadow.h) that the current strand's reads change nothing in and
 * race with none of them (the writer serial, the reader a parallel one,
 * kept): the last ones checks found (a loop reads a few shared arrays);
 * NO_PAIR when none. */
enum { WS_RACE_SAME_READS = 4 };
extern uint64_t ws_race_same_read[WS_RACE_SAME_READS];
extern unsigned ws_race_same_next;
#define WS_RACE_NO_PAIR 0xffffffffffffffffull
static inline void ws_race_same_read_add(uint64_t v) {
  ws_race_same_read[ws_race_same_next++ & (WS_RACE_SAME_READS - 1)] = v;
}
/* Loops' checks (access.c) that the current strand made lately, valid
 * while ws_race_generation stays: it changes with the current strand and
 * whenever memory forgets its accesses (shadow.c). */
extern uint32_t ws_race_generation;
/* The checked thread's current strand changed (bags.c, on that thread). */
static inline void ws_race_set_me(ws_strand s) {
  ws_race_running = s;
  ws_race_generation++;
  for (int i = 0; i < WS_RACE_SAME_READS; i++)
    ws_race_same_read[i] = WS_RACE_NO_PAIR;
  if (!ws_race_ignored)
    ws_race_me = s;
}

/* ---- call stacks (callstack.c) ---- */

/* The current stack: call sites, outermost first, and how many of its
 * outermost have their trie ids computed (ws_race_stack_id). */
extern uintptr_t *ws_race_sites;
extern unsigned ws_race_depth, ws_race_interned, ws_race_depth_cap;
void ws_race_stack_grow_push(uintptr_t call_site);
/* Never more are interned than are on the stack (a pop lowers the count,
 * and nothing interns above the top): a frame pushed is above them. */
static inline void ws_race_stack_push(uintptr_t call_site) {
  unsigned d = ws_race_depth;
  if (__builtin_expect(d == ws_race_depth_cap, 0)) {
    ws_race_stack_grow_push(call_site); /* a tail call: no frame here */
    return;
  }
  ws_race_sites[d] = call_site;
  ws_race_depth = d + 1;
}
static inline void ws_race_stack_pop(void) {
  if (ws_race_depth && --ws_race_depth < ws_race_interned)
    ws_race_interned = ws_race_depth;
}
/* The current stack's call sites, innermost first, at most n. */
int ws_race_stack_now(uintptr_t *pcs, int n);
/* The current stack as one id (kept by a strand that begins here). */
uint32_t ws_race_stack_id(void);
/* The id of the current stack's d outermost frames: the ids of the
 * interned part are kept (ids_now[k]: the stack's k + 1 outermost). */
extern uint32_t *ws_race_ids_now;
uint32_t ws_race_stack_id_below_slow(unsigned d);
static inline uint32_t ws_race_stack_id_below(unsigned d) {
  if (d > ws_race_depth)
    d = ws_race_depth;
  if (__builtin_expect(ws_race_interned < d, 0))
    return ws_race_stack_id_below_slow(d);
  return d ? ws_race_ids_now[d - 1] : 0;
}
/* Stack `below` with one more call site on top. */
uint32_t ws_race_stack_with(uint32_t below, uintptr_t call_site);
/* The call sites of stack id, innermost first, at most n. */
int ws_race_stack_frames(uint32_t id, uintptr_t *pcs, int n);
/* Collection (collect.c): ids made since the last one, and a compaction
 * that keeps the ids marked (and those of the current stack), renumbering
 * them: *remap[id] becomes the new id of id (0: gone). */
extern uint32_t ws_race_stack_ids_made;
static inline uint32_t ws_race_stack_ids(void) { return ws_race_stack_ids_made; }
void ws_race_stack_mark(uint32_t id, uint8_t *marks);
uint32_t *ws_race_stack_compact(uint8_t *marks);

/* ---- bags.c ---- */

/* The strand running now (the current segment of the innermost
 * procedure; 0 while it is not made). */
extern ws_strand ws_race_current;
/* Makes the current strand (ws_race_me was WS_RACE_PENDING). */
ws_strand ws_race_make_me(void);
/* Does strand s run logically in parallel with the current one (is its
 * bag a P-bag)?  The union-find: parents (a root is its own) and the kind
 * of each root's bag; finding halves the path. */
extern ws_strand *ws_race_parent;
extern uint8_t *ws_race_bag_kind;
static inline int ws_race_parallel(ws_strand s) {
  ws_strand *up = ws_race_parent;
  for (ws_strand p = up[s]; p != s; p = up[s]) {
    ws_strand g = up[p];
    if (g != p) /* halve the path; no store where it is one step already */
      up[s] = g;
    s = g;
  }
  return ws_race_bag_kind[s]; /* 1: a P-bag */
}
/* For a report: the spawn whose child made s parallel with the current
 * strand, and the call stack s began in. */
uintptr_t ws_race_spawn_of(ws_strand s);
uint32_t ws_race_stack_of(ws_strand s);
/* The current strand is named in the shadow: a report may need the call
 * stack it began in, which is interned now (a strand that is never named
 * costs no call stack). */
extern uint32_t *ws_race_stack_at;
void ws_race_strand_named_slow(ws_strand me);
static inline void ws_race_strand_named(ws_strand me) {
  if (__builtin_expect(ws_race_stack_at[me] >> 31, 0))
    ws_race_strand_named_slow(me);
}

/* The SP-bags steps (hooks.c calls them); the first strand (init.c). */
void ws_race_bags_start(void);
extern unsigned ws_race_lazy; /* spawning functions entered, not yet spawned */
void ws_race_bags_leave(void);
void ws_race_bags_spawn(ws_slot *slot, uintptr_t spawn_pc);
void ws_race_bags_child_begin(ws_slot *slot);
void ws_race_bags_child_end(void);

/* Collection (collect.c): the strands made since the last collection,
 * those alive after it; marking a strand (and its set's root); the
 * compaction, which renumbers the marked strands and returns the map from
 * old numbers to new ones (0: gone), valid until the next call; the call
 * stacks the strands keep. */
extern uint32_t ws_race_strands_made;
static inline uint32_t ws_race_strands(void) { return ws_race_strands_made; }
void ws_race_strand_mark(ws_strand s, uint8_t *marks);
void ws_race_strands_mark_own(uint8_t *marks);
ws_strand *ws_race_strands_compact(const uint8_t *marks);
void ws_race_strands_stacks(void (*each)(uint32_t *stack_id, void *arg), void *arg);

/* ---- report.c ---- */

enum ws_race_kind { WS_RACE_WRITE_WRITE, WS_RACE_WRITE_READ, WS_RACE_READ_WRITE };
/* The current access (pc, in the current stack) races with an earlier one
 * by strand `earlier` at earlier_pc (0: unknown). */
void ws_race_found(enum ws_race_kind kind, uintptr_t addr, uintptr_t pc,
                   ws_strand earlier, uintptr_t earlier_pc);
/* Reads WS_RACE_HALT and WS_RACE_LOG; installs the exit status check. */
void ws_race_report_init(void);
/* Code addresses as 32-bit offsets from the executable's load address
 * (code elsewhere, in a shared library: 0, unknown). */
extern uintptr_t ws_race_code_base;
static inline uint32_t ws_race_code_offset(uintptr_t pc) {
  uintptr_t d = pc - ws_race_code_base;
  return pc > ws_race_code_base && d < UINT32_MAX ? (uint32_t)d : 0;
}
static inline uintptr_t ws_race_code_address(uint32_t offset) {
  return offset ? ws_race_code_base + offset : 0;
}

/* ---- shadow.c ---- */

void ws_race_shadow_init(void);
/* The checks of an access of size bytes at addr, made at pc. */
void ws_race_read(uintptr_t addr, size_t size, uintptr_t pc);
void ws_race_write(uintptr_t addr, size_t size, uintptr_t pc);
/* count accesses of size bytes, stride apart from addr (a loop's). */
void ws_race_strided(uintptr_t addr, size_t size, intptr_t stride, size_t count,
                     uintptr_t pc, int write);
/* [addr, addr+size) is dead (a freed block); from the checked thread. */
void ws_race_forget(uintptr_t addr, size_t size);
/* The same from any thread: done by the checked thread before its next
 * check that can tell (heap.c). */
void ws_race_forget_later(uintptr_t addr, size_t size);
/* The checked thread's stack; the stack below `sp` is dead: it forgets
 * its accesses (a child runs there next, or a scope ended). */
void ws_race_stack_init(uintptr_t lo, size_t size);
extern uintptr_t ws_race_stack_lo, ws_race_stack_size, ws_race_stack_dirty;
void ws_race_stack_forget_below(uintptr_t sp);
static inline void ws_race_stack_dead_below(uintptr_t sp) {
  /* ws_race_stack_dirty: the lowest stack address whose shadow changed
   * since the stack below it was last forgotten (shadow.c). */
  if (ws_race_stack_dirty < sp && sp - ws_race_stack_lo <= ws_race_stack_size)
    ws_race_stack_forget_below(sp);
}
/* Collection: every strand the shadow refers to, marked; then renumbered. */
void ws_race_shadow_mark(uint8_t *marks);
void ws_race_shadow_renumber(const ws_strand *remap);
/* Granules the shadow has ever held (what marking it reads). */
size_t ws_race_shadow_granules(void);

/* ---- access.c ---- */

/* n bytes from x, read or written by a C library function called at pc:
 * ws_race_read or ws_race_write, unless the current strand checked that
 * very range lately (as loops' checks are remembered). */
void ws_race_range(uintptr_t x, size_t n, uintptr_t pc, int write);

/* ---- intercept.c ---- */

/* Where the program's code is (the calls from elsewhere are not checked). */
void ws_race_intercept_init(void);

/* ---- collect.c ---- */

/* When enough strands or call stacks were made since the last time:
 * reclaim those no longer referenced.  Due before a strand is made
 * (shadow.c), where no strand number is held.  The shadow is below the
 * collector (which reads and renumbers it): it calls it through
 * ws_race_collector, which init.c points at ws_race_collect (checked.c
 * holds both, with the thresholds collect.c sets). */
enum { WS_RACE_MIN_STRANDS = 1 << 18, WS_RACE_MIN_STACKS = 1 << 16 };
extern uint32_t ws_race_strands_due, ws_race_stacks_due;
extern void (*ws_race_collector)(void);
void ws_race_collect(void);
static inline void ws_race_collect_if_due(void) {
  if (__builtin_expect(ws_race_strands() >= ws_race_strands_due ||
                           ws_race_stack_ids() >= ws_race_stacks_due, 0) &&
      ws_race_collector)
    ws_race_collector();
}

/* ---- the runtime's side (views.c, the pass's calls: hooks.c) ---- */

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
