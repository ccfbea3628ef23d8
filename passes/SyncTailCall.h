//===- SyncTailCall.h - ws-tre: a sync's self-recursive call as a loop -*- C++ -*-===//
//
// Serial code loses nothing to recursion in fib: the optimizer turns the
// last call into a loop (tail-recursion elimination with an accumulator).
// Lowered, that call is the direct call of the spawned body at the sync,
// and the path where the task was stolen joins it before the return: the
// result goes through a phi, and TailCallElim gives up.  ws-tre copies the
// few side-effect-free instructions from the join point to the return into
// the fast path (so the call is followed by `op; ret` there), then runs
// TailCallElim on the function.  Runs late in the function simplification
// pipeline, after the fast paths are inlined.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SYNCTAILCALL_H
#define WSFF_SYNCTAILCALL_H

#include "llvm/IR/PassManager.h"

namespace wsff {

class SyncTailCallPass : public llvm::PassInfoMixin<SyncTailCallPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace wsff

#endif
