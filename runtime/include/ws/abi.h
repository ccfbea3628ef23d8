/*
 * ws/abi.h — the binary interface between compiled code and the wsff runtime.
 *
 * Compiled code (the ws-lower pass, or a program lowered by hand) sees only
 * what is declared here.  The pass reads the names and the record layout from
 * this header, so the runtime owns the contract.
 *
 * A spawn builds a task descriptor in the spawning function's frame (a
 * ws_task header followed by the arguments and room for the result), pushes
 * a pointer to it, and at the sync takes it back:
 *
 *     ws_worker *w = __ws_self();
 *     d.hdr.run = thunk; d.hdr.state = 0; d.arg = n - 1;
 *     __ws_push_thep(w, &d.hdr);
 *     ...
 *     ws_task *r = __ws_take_thep(w);
 *     if (!((uintptr_t)r & WS_TAKE_STOLEN)) res = fib(d.arg);     // not stolen: direct call
 *     else { __ws_join_stolen(w, &d.hdr); res = d.result; }       // wait + leapfrog
 *
 * Takes are strictly LIFO per worker: a sync takes back the most recent
 * outstanding spawn first.
 */
#ifndef WS_ABI_H
#define WS_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WS_ABI_VERSION 1

/* Per-thread scratch lines for the stores the compiler inserts after a take
 * (ws_tls_scratch, 8-byte words, WS_SCRATCH_LINES lines of 64 bytes). */
#define WS_SCRATCH_LINES 8

typedef struct ws_worker ws_worker; /* opaque to compiled code */

/* Header of every task descriptor.  The pass appends the arguments and the
 * result slot after it.  `state` is written by a thief only: 0 while the task
 * has not been stolen, then the thief's ws_worker address, then that address
 * | WS_TASK_DONE once the task has run.  Compiled code stores 0 at spawn. */
typedef struct ws_task {
  void (*run)(struct ws_task *self);
  uintptr_t state;
} ws_task;

#define WS_TASK_DONE ((uintptr_t)1)

/* A take returns the descriptor it removed.  When a thief got it first the
 * result is tagged with WS_TAKE_STOLEN, and its pointer is only a hint: once
 * a THE or Chase-Lev deque lost a task, later stolen takes of the same frame
 * report the same slot.  Compiled code waits for the descriptor it knows it
 * pushed (a function with several outstanding spawns chains them). */
#define WS_TAKE_STOLEN ((uintptr_t)1)

/* Deque variants.  The numbers are stored in module records: do not reorder. */
enum ws_variant_id {
  WS_VARIANT_THE = 0,
  WS_VARIANT_CL = 1,
  WS_VARIANT_FFTHE = 2,
  WS_VARIANT_FFCL = 3,
  WS_VARIANT_THEP = 4,
  WS_VARIANT_SPLIT = 5,
  WS_VARIANT_PRIVATE = 6,
  WS_VARIANT_COUNT = 7,
  WS_VARIANT_RUNTIME = 255 /* compiled against the generic entry points */
};

/* Scratch lines for the stores the compiler inserts after a take
 * (ws-anticoalesce); per thread, so per worker. */
extern __thread volatile uint64_t ws_tls_scratch[WS_SCRATCH_LINES * 8];

/* The current worker.  Fatal (clear message, exit 2) on a thread the runtime
 * does not own. */
ws_worker *__ws_self(void);

/* Per-variant fast paths; also compiled to bitcode (ws-abi.bc) that the pass
 * links into each module and inlines. */
#define WS_DECLARE_VARIANT_ABI(v)                                              \
  void __ws_push_##v(ws_worker *w, ws_task *t);                                \
  ws_task *__ws_take_##v(ws_worker *w);
WS_DECLARE_VARIANT_ABI(the)
WS_DECLARE_VARIANT_ABI(cl)
WS_DECLARE_VARIANT_ABI(ffthe)
WS_DECLARE_VARIANT_ABI(ffcl)
WS_DECLARE_VARIANT_ABI(thep)
WS_DECLARE_VARIANT_ABI(split)
WS_DECLARE_VARIANT_ABI(private)
#undef WS_DECLARE_VARIANT_ABI

/* Generic entry points: dispatch to the variant chosen at start-up
 * (WS_DEQUE).  Hand-lowered programs use these. */
void __ws_push(ws_worker *w, ws_task *t);
ws_task *__ws_take(ws_worker *w);

/* Slow path of a sync whose task was stolen: run other work (leapfrogging:
 * steal from the thief first, then at random) until the task is done. */
void __ws_join_stolen(ws_worker *w, ws_task *t);

/* One record per compiled module, in section "ws_delta" (paper 000 §4,
 * "Determining delta").  The runtime walks all records at start-up and uses
 * delta = max_i ceil(S / (x_i + 1)) for the S it resolves itself. */
#define WS_RECORD_SECTION "ws_delta"
#define WS_RECORD_MAGIC 0x77736466u /* "wsdf" */
#define WS_RECORD_VERSION 1u
#define WS_X_UNBOUNDED 0xffffffffu /* module has no path from a take to another */

typedef struct ws_module_record {
  uint32_t magic;     /* WS_RECORD_MAGIC */
  uint32_t version;   /* WS_RECORD_VERSION */
  uint32_t x;         /* min stores between two takes on any path */
  uint32_t s_compile; /* S assumed at compile time */
  uint32_t delta;     /* ceil(s_compile / (x + 1)), for information */
  uint32_t variant;   /* enum ws_variant_id the module was compiled for */
  const char *module; /* module identifier (source file name) */
} ws_module_record;

#ifdef __cplusplus
}
#endif

#endif /* WS_ABI_H */
