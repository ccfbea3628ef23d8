//===- LowerSpawnSync.h - ws-lower: spawns and syncs onto the runtime ----===//
//
// For each spawn, a task descriptor in the caller's frame and a push; at
// each sync (and before every return), a take of each outstanding spawn in
// LIFO order and, when it was not stolen, a direct call of the task body
// (so the optimizer inlines the spawned function); when it was stolen, the
// runtime's slow path (wait and leapfrog).
//
// When every sync sees the same sequence of outstanding spawns on every
// path ("static" functions, e.g. fib), descriptors are allocas of the entry
// block and the direct calls use the live-ins as SSA values.  Otherwise
// (spawns in loops, or in branches that merge before a sync) the function
// counts its outstanding spawns, descriptors in loops are allocated at the
// spawn, and a sync pops until the count is zero, dispatching on the
// descriptor's thunk.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_LOWERSPAWNSYNC_H
#define WSFF_LOWERSPAWNSYNC_H

#include "WsOptions.h"

#include "llvm/IR/PassManager.h"

namespace wsff {

class LowerSpawnSyncPass : public llvm::PassInfoMixin<LowerSpawnSyncPass> {
public:
  explicit LowerSpawnSyncPass(WsOptions Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  WsOptions Opts;
};

} // namespace wsff

#endif
