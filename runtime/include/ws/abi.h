/*
 * ws/abi.h — the binary interface between compiled code and the wsff runtime.
 *
 * Compiled code (the ws-lower pass, or a program lowered by hand) sees only
 * what is declared here and in ws/abi.def.  The pass takes the names from
 * the tables and checks the layouts against the runtime's bitcode, so the
 * runtime owns the contract.
 *
 * A task lives in its owner's deque, one 64-byte slot per spawn.  Spawning
 * code keeps the owner's tail (the next free slot) in a register: it gets
 * it as a hidden argument, or once from __ws_tail() at an entry point.  A
 * spawn writes the task into the slot and publishes it; the matching sync
 * takes the same slot back and, when no thief got it, calls the task's body
 * directly:
 *
 *     slot->run = fib_thunk; *(long *)slot->payload = n - 1;
 *     __ws_push_thep(slot);                       // tail is now slot + 1
 *     b = fib_clone(slot + 1, n - 2);
 *     if (!__ws_take_thep(slot)) a = fib_clone(slot, n - 1);   // direct call
 *     else { __ws_join(slot); a = *(long *)slot->payload; }     // stolen
 *
 * Takes are strictly LIFO per worker and a stolen slot stays the owner's
 * until its join, so the slot a sync takes back is always the one it pushed.
 */
#ifndef WS_ABI_H
#define WS_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WS_ABI_VERSION 3

/* A task in its deque slot.  `run` is what a thief calls (the thunk): it
 * reads the task's inputs from the payload, runs the task with the thief's
 * own tail for the spawns it makes, and stores the result, if the task has
 * one that fits, at the start of the payload.  When the inputs do not fit,
 * the payload holds a pointer to them in the spawning frame.  `state` is
 * written by the runtime only: 0 while the task is not stolen, the thief's
 * ws_worker address while it runs, WS_TASK_DONE after, or'd with the
 * address of the reducer views the task left (none: 0), which the join
 * takes; a join puts it back to 0.  Compiled code never writes it. */
#define WS_SLOT_SIZE 64
#define WS_SLOT_PAYLOAD 48

typedef struct ws_slot ws_slot;
typedef void (*ws_task_fn)(ws_slot *self, ws_slot *tail);

struct ws_slot {
  ws_task_fn run;
  uintptr_t state;
  unsigned char payload[WS_SLOT_PAYLOAD] __attribute__((aligned(16)));
} __attribute__((aligned(WS_SLOT_SIZE)));

#define WS_TASK_DONE ((uintptr_t)1)
/* With DONE: the task threw, and the start of the payload holds what
 * __ws_exception_capture made of the exception (__ws_task_threw). */
#define WS_TASK_THREW ((uintptr_t)2)

/* Deque variants (ws/variants.def).  The numbers are stored in module
 * records. */
enum ws_variant_id {
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail, validated_only, summary) WS_VARIANT_ID_##name = id,
#include "ws/variants.def"
#undef WS_VARIANT
  WS_VARIANT_COUNT,
  WS_VARIANT_RUNTIME = 255 /* compiled against the generic entry points */
};

/* The calling thread's tail, for an entry point into spawning code (the
 * runtime starts here if it has not).  NULL on a thread the workers do not
 * run (one the program created, when there is more than one worker): the
 * entry point then hands its call to the workers with __ws_submit. */
ws_slot *__ws_tail(void);
/* The same for code that cannot be handed over (a spawning function
 * lowered in place: variadic, or interposable): fatal (clear message, exit 2) where __ws_tail is NULL. */
ws_slot *__ws_tail_owned(void);

/* Runs run(closure, tail) on a worker, with the worker's tail, and returns
 * when it is done; the calling thread sleeps meanwhile (no spinning).  The
 * reducer views the call left join the caller's.  For entry points called
 * where __ws_tail is NULL. */
void __ws_submit(void (*run)(void *closure, ws_slot *tail), void *closure);

/* Reducer views across a sync that runs a task body directly, emitted by
 * the pass in functions that may reach a reducer:
 *
 *     if (__ws_views_above(slot)) {          // an inlined compare
 *       void *aside = __ws_child_begin(slot);
 *       body(slot, ...);                     // the child, after its continuation
 *       __ws_child_end(aside);
 *     } else body(slot, ...);                // as in any other function
 *
 * __ws_views_above says whether an ordered (non-commutative) view has a
 * segment above `slot` (updates of the continuation that follows the child
 * in serial order), or a reducer was registered at or above it (the child
 * must be told from the registering strand).  __ws_child_begin opens a
 * boundary and sets those segments aside (NULL: the thread has no views)
 * and __ws_child_end puts them back after the child's (docs/design.md,
 * "Reducers in serial order"). */
int __ws_views_above(ws_slot *slot);
void *__ws_child_begin(ws_slot *slot);
void __ws_child_end(void *aside);
/* -fws-race (docs/race.md, libws_race.a): a spawning function's procedure
 * begins, with its entry tail, and ends (at every return and resume); a
 * spawn was pushed at slot.  A build for races calls __ws_child_begin and
 * __ws_child_end around every child run at a sync. */
void __ws_race_enter(ws_slot *tail);
void __ws_race_leave(void);
void __ws_race_spawn(ws_slot *slot);

/* What __ws_views_above compares with: the highest key of an ordered
 * view's current segment, or just above a registration's tail, in the
 * calling thread's context. */
extern __thread ws_slot *ws_tls_views_max __attribute__((tls_model("initial-exec")));

/* Per-variant fast paths; also compiled to bitcode (ws-abi.bc) that the pass
 * links into each module and inlines.
 *   __ws_push_V(slot)  publishes the task compiled code wrote into `slot`,
 *                      the owner's tail; the tail is then slot + 1
 *   __ws_take_V(slot)  takes `slot` back (the owner's tail is slot + 1):
 *                      0 when the owner has it, nonzero when a thief got it
 *                      first; then __ws_join(slot) must follow */
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail, validated_only, summary)                       \
  void __ws_push_##name(ws_slot *slot);                                        \
  int __ws_take_##name(ws_slot *slot);
#include "ws/variants.def"
#undef WS_VARIANT

/* Records the owner's tail for __ws_tail, for variants whose push and take
 * do not (ws/variants.def publishes_tail): compiled code calls it before a
 * call that may enter spawning code through its entry point. */
void __ws_publish_tail(ws_slot *tail);

/* Generic entry points: dispatch to the variant chosen at start-up
 * (WS_DEQUE).  Hand-lowered programs and -fws-fencefree=runtime use them. */
void __ws_push(ws_slot *slot);
int __ws_take(ws_slot *slot);

/* A take found its task stolen: run other work (leapfrogging: steal from
 * the thief first, then at random) until the thief is done with it, then
 * give the slot back to the owner: the tail is `slot` again.  Returns the
 * exception the task threw (see below), or NULL. */
void *__ws_join(ws_slot *slot);

/* C++ exceptions (runtime/src/exceptions.cpp; compiled code calls these
 * only where a task or a spawning function may throw, so a C program never
 * links them).  An exception is passed around as what capture made of it:
 * a heap copy of its std::exception_ptr.
 *   __ws_exception_capture(e)  in a catch-all landing pad, e its exception
 *                              object: catches it, and returns it captured
 *   __ws_task_threw(slot, e)   the same in a thunk, on the thief: the
 *                              captured exception goes into the slot, for
 *                              the owner's __ws_join to return
 *   __ws_exception_drop(x)     destroys a captured exception (NULL: none)
 *   __ws_exception_rethrow(x)  throws it again, in the spawning function */
void *__ws_exception_capture(void *exception);
void __ws_task_threw(ws_slot *slot, void *exception);
void __ws_exception_drop(void *captured);
__attribute__((noreturn)) void __ws_exception_rethrow(void *captured);

/* Per-thread scratch lines for the stores the compiler inserts after a take
 * (ws-anticoalesce): 8-byte words, WS_SCRATCH_LINES lines of 64 bytes, so
 * that consecutive inserted stores go to different lines. */
#define WS_SCRATCH_LINES 8
extern __thread volatile uint64_t ws_tls_scratch[WS_SCRATCH_LINES * 8]
    __attribute__((tls_model("initial-exec")));

/* Spawns counted by code compiled with -fws-stats (one increment per spawn;
 * nothing is counted otherwise). */
extern __thread uint64_t ws_tls_spawns __attribute__((tls_model("initial-exec")));

/* One record per compiled module, in section "ws_delta" (paper 000 §4,
 * "Determining delta"): the one carrier of what a module tells the runtime.
 * The runtime walks all records at start-up and uses
 * delta = max_i ceil(S / (x_i + 1)) (ws/delta.h) for the S it resolves. */
#define WS_RECORD_SECTION "ws_delta"
#define WS_RECORD_MAGIC 0x77736466u /* "wsdf" */
#define WS_RECORD_VERSION 2u
#define WS_X_UNBOUNDED 0xffffffffu /* module has no path from a take to another */
#define WS_RECORD_COUNTS_SPAWNS 1u  /* flags: compiled with -fws-stats */

typedef struct ws_module_record {
  uint32_t magic;     /* WS_RECORD_MAGIC */
  uint32_t version;   /* WS_RECORD_VERSION */
  uint32_t x;         /* min stores between two takes on any path */
  uint32_t s_compile; /* S assumed at compile time */
  uint32_t delta;     /* ws_delta(s_compile, x), for information */
  uint32_t variant;   /* enum ws_variant_id the module was compiled for */
  uint32_t flags;     /* WS_RECORD_* */
  uint32_t abi;       /* WS_ABI_VERSION the module was compiled against */
  const char *module; /* module identifier (source file name) */
} ws_module_record;

/* Every module with a record also calls this from a constructor of its own
 * (passes/DeltaRecord.cpp): the modules of a shared library are not in the
 * executable's ws_delta section, so this is how their x and variant reach
 * delta.  A record registered before the runtime configures itself joins
 * the section's; one registered later (a dlopen) is checked against the
 * running configuration: a variant that differs, or an x that needs a
 * larger delta once the workers run, stops the program with one line. */
#define WS_REGISTER_MODULE_FN "__ws_register_module"
void __ws_register_module(const ws_module_record *record);

#ifdef __cplusplus
}
#endif

#endif /* WS_ABI_H */
