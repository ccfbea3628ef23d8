/*
 * ws/omp_abi.h — the contract between OpenMP code that the compiler lowers
 * onto wsff's own spawns (ws-lower's fast path, issue 35) and the runtime's
 * OpenMP module (runtime/src/omp, docs/openmp.md).
 *
 * Clang compiles `#pragma omp task` to libomp's calls: __kmpc_omp_task_alloc
 * (a heap task), __kmpc_omp_task, __kmpc_omp_taskwait.  The runtime
 * implements them (the general path).  Where a function waits for every
 * task it creates (a taskwait on every path), ws-lower may instead spawn
 * the task's entry, with the task's data in the creating frame, and sync
 * it at the taskwait (the fast path).  The runtime keeps, per thread, "the
 * current task": OpenMP queries, nested regions, tasks created on the
 * general path, taskgroups and nested locks go by it.  A fast-path task
 * tells the runtime where it begins and ends with a context block in the
 * creating frame:
 *
 *     // creating frame, once per task (ctx: WS_OMP_TASK_CTX_SIZE bytes,
 *     // aligned to WS_OMP_TASK_CTX_ALIGN, next to the task's data):
 *     __ws_omp_task_ctx_init(ctx, flags);   // flags as for task_alloc
 *     spawn body(ctx, data...);
 *     ...
 *     // the taskwait:
 *     ws_sync;                              // the fast-path tasks
 *     __kmpc_omp_taskwait(loc, gtid);       // the general-path children
 *
 *     // the spawned body, on whichever worker runs it:
 *     __ws_omp_task_begin(ctx);
 *     ... the task's code (may create tasks, on either path) ...
 *     __ws_omp_task_end(ctx);
 *
 * Rules:
 *  1. ctx stays valid from __ws_omp_task_ctx_init until the body's
 *     __ws_omp_task_end returns (the creating frame outlives its tasks:
 *     the sync comes first).  Its bytes past the first two words are the
 *     runtime's.
 *  2. Tasks the body creates on the general path are its children: a
 *     taskwait in the body waits for them on the worker that runs it (the
 *     owner's, or a thief's), and __ws_omp_task_end finishes any that are
 *     still queued before it returns.
 *  3. Every task created before a barrier (__kmpc_barrier, the implicit
 *     ones at the end of single, for and sections without nowait, the end
 *     of a parallel region, __kmpc_end_reduce, __kmpc_copyprivate) or the
 *     end of a taskgroup (__kmpc_end_taskgroup) must be complete there.
 *     The runtime sees only the general path: compiled code syncs its
 *     fast-path spawns before those calls, as at a taskwait.
 *  4. Split and private deques: compiled code publishes its tail
 *     (__ws_publish_tail) before a call to any __kmpc_ entry point that
 *     may wait (barrier, taskwait, taskyield, end_taskgroup, fork_call,
 *     single/critical/reduce, taskloop) as before any call that may enter
 *     spawning code: a worker waiting there runs tasks it steals with the
 *     thread's published tail.
 *  5. The fast path must not be used for a task with `depend` or
 *     `detach`, nor with an `if` clause that may be false (the
 *     encountering thread runs an if(0) task at once: clang calls the
 *     entry itself between __kmpc_omp_task_begin_if0 and
 *     __kmpc_omp_task_complete_if0).  A task created where the current
 *     task is final or included must run to completion before the creator
 *     goes on, as a call: __ws_omp_task_ctx_init sets the context's final
 *     bit (flags bit 1) then, and compiled code calls the body instead of
 *     spawning it.
 *
 *  6. A task none of whose code asks the runtime about its task (no
 *     query, no general-path task, no taskgroup, no nested region, no
 *     lock, no call the compiler cannot see into: ws-lower's
 *     contextSensitive) is context-free: compiled code makes it no
 *     context at its creation, spawns it even where the current task is
 *     final (which only an undeferred run of its code could tell, and its
 *     code cannot), and brackets its body with
 *     __ws_omp_free_task_begin(ctx) / __ws_omp_free_task_end(ctx, own)
 *     instead: it runs in the task current where it runs, and makes a
 *     context of its own only where that task has queued children.
 *
 * Costs: __ws_omp_task_ctx_init, __ws_omp_task_begin and
 * __ws_omp_task_end are a few loads and stores each when the body asked
 * the runtime nothing (no general-path task, no query); a taskwait
 * where no general-path child is outstanding is one thread-local load, a
 * compare and a return; __kmpc_global_thread_num is a thread-local load
 * and a test.
 */
#ifndef WS_OMP_ABI_H
#define WS_OMP_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The context block of a fast-path task: WS_OMP_TASK_CTX_SIZE bytes,
 * aligned to WS_OMP_TASK_CTX_ALIGN.  Compiled code writes its first two
 * words (__ws_omp_task_ctx_init); the rest is the runtime's. */
#define WS_OMP_TASK_CTX_SIZE 64
#define WS_OMP_TASK_CTX_ALIGN 8
/* Offsets of the words compiled code may read: the creator's current
 * task (the value of __ws_omp_current_task in the creating frame) and the
 * task's flags, a uint32_t, as passed to __kmpc_omp_task_alloc (bit 0
 * tied, bit 1 final; the others are ignored).  __ws_omp_task_ctx_init
 * writes them, and what the runtime copies from the creator's task. */
#define WS_OMP_TASK_CTX_PARENT 0
#define WS_OMP_TASK_CTX_FLAGS 8

typedef struct ws_omp_task_ctx {
  void *parent;
  uint32_t flags;
  uint32_t runtime_private_0;
  void *runtime_private[(WS_OMP_TASK_CTX_SIZE - 16) / sizeof(void *)];
} __attribute__((aligned(WS_OMP_TASK_CTX_ALIGN))) ws_omp_task_ctx;

#ifdef __cplusplus
static_assert(sizeof(ws_omp_task_ctx) == WS_OMP_TASK_CTX_SIZE, "ctx size");
#else
_Static_assert(sizeof(ws_omp_task_ctx) == WS_OMP_TASK_CTX_SIZE, "ctx size");
#endif

/* The calling thread's current task (NULL: the thread's initial task, as
 * long as the runtime has not been asked anything on it).  Compiled code
 * reads it in the creating frame, for the context's parent word. */
extern __thread void *__ws_omp_current_task __attribute__((tls_model("initial-exec")));

/* In the creating frame, before the spawn (runtime/src/omp/fast.c,
 * inlined from ws-abi.bc). */
void __ws_omp_task_ctx_init(void *ctx, uint32_t flags);

/* Whether the calling thread's current task is final or included (its
 * flags word has KMP's final bit, which the runtime keeps on every task it
 * knows): tasks created there are included, and may not be spawned. */
static inline int __ws_omp_in_final(void) {
  ws_omp_task_ctx *c = (ws_omp_task_ctx *)__ws_omp_current_task;
  return c && (c->flags & 2u);
}

/* Around the body, on the worker that runs it: the task becomes the
 * thread's current task, and the one that was stops being it.  Begin only
 * links the context in (a lazy task): the runtime completes its record
 * the first time it is asked anything while the task is current (a query,
 * a general-path task, a taskgroup), on that thread; a task that never
 * asks costs three stores and a load on each side. */
void __ws_omp_task_begin(void *ctx);
void __ws_omp_task_end(void *ctx);

/* Around a context-free task's body (rule 6): a thread-local load and a
 * test each, where the current task has no queued child. */
int32_t __ws_omp_free_task_begin(void *ctx);
void __ws_omp_free_task_end(void *ctx, int32_t own);

/* libomp's entry points the fast path keeps calling (locations: clang's
 * ident_t, ignored by the runtime but for the flags). */
int32_t __kmpc_global_thread_num(void *loc);
int32_t __kmpc_omp_taskwait(void *loc, int32_t gtid);
/* The same, under wsff's names: what ws-lower calls in the functions it
 * lowered, and inlines from ws-abi.bc (runtime/src/omp/fast.c). */
int32_t __ws_omp_global_thread_num(void *loc);
int32_t __ws_omp_taskwait(void *loc, int32_t gtid);

#ifdef __cplusplus
}
#endif

#endif /* WS_OMP_ABI_H */
