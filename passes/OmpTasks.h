//===- OmpTasks.h - OpenMP tasks a function waits for, as spawns -*- C++ -*-===//
//
// The compiler side of `ws-clang -fopenmp -fws-fencefree` (issue 35): clang
// lowers `#pragma omp task` to libomp's calls,
//
//   %t = __kmpc_omp_task_alloc(loc, gtid, flags, sizeof_task, sizeof_shareds, @entry)
//   ...the task's shareds and firstprivates written into %t...
//   __kmpc_omp_task(loc, gtid, %t)
//   ...
//   __kmpc_omp_taskwait(loc, gtid)
//
// which the runtime implements (runtime/src/omp: the general path, a task
// on the heap).  Where a function waits for every task of a site on every
// path out of it (a taskwait, a barrier, the end of a taskgroup), the task
// is its own spawn instead (the fast path): its data in the creating frame
// (a block per task: a static alloca, or one per iteration for a site in a
// loop, given back after the wait), `ws.omp.task.<entry>(%t)` (its context at a constant offset in the block) spawned
// with ws_spawn's markers, and a ws_sync before each wait; ws-lower then
// lowers them as any spawn (fence-free push and take, the body inlined at
// the sync).  The contract with the runtime is ws/omp_abi.h: a context
// block beside the task's data, __ws_omp_task_begin/end around the body.
//
//  * Where the current task is final or included (`final` clauses, nested
//    in one) its tasks must run at once, as calls: the context inherits
//    the creator's final bit (__ws_omp_task_ctx_init), and each site tests
//    it, calling the task where it is set and spawning it otherwise.
//  * A context-free task (its code asks the runtime nothing about its
//    task) runs in the task current where it runs (ws/omp_abi.h, rule 6),
//    and where its creator writes its block in plain ways it is spawned
//    with the words written, not the block (OmpBlockValues.h).
//  * An untied task is run to its end in one call: where its code
//    re-queues itself at a scheduling point (__kmpc_omp_task of its own
//    task), it calls its entry again at once instead.
//  * Not for: flags other than tied/untied (final known at compile time is
//    fine only as "not final"), `depend`, `detach`, an `if` clause (the
//    allocated task has other uses), coroutines, variadic functions, and
//    a site some path leaves the function with outstanding.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_OMPTASKS_H
#define WSFF_OMPTASKS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
}

namespace wsff {

/// Is Name one of the entry points that a fast-path task's code calls
/// around and within it (__ws_omp_free_task_begin/_end, __ws_omp_taskwait,
/// __ws_omp_global_thread_num)?  They touch no reducer: what they may run
/// is the current task's queued children, deferred OpenMP tasks, whose
/// order against a spawn's strand no serial order fixes (ViewReach.h).
bool isOmpFastPathEntry(llvm::StringRef Name);

/// Lowers M's eligible OpenMP task sites onto ws_spawn's markers and
/// ws_sync; true if it changed anything.
bool lowerOmpTasks(llvm::Module &M);

} // namespace wsff

#endif
