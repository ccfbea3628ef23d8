//===- LowerSpawnSync.h - ws-lower: spawns and syncs onto the runtime ----===//
//
// Each spawning function gets a clone taking the owner's tail (the next
// free deque slot) as a hidden argument.  For each spawn, the task goes
// into the slot at the tail and a push publishes it; at each sync (and
// before every return) a take of each outstanding spawn in LIFO order
// and, when it was not stolen, a direct call of the task body (so the
// optimizer inlines the spawned function); when it was stolen, the
// runtime's slow path (wait and leapfrog).
//
// When every sync sees the same sequence of outstanding spawns on every
// path ("static" functions, e.g. fib), the direct calls use the live-ins
// as SSA values.  Otherwise (spawns in loops, or in branches that merge
// before a sync) a sync pops slots until the tail is back where the
// function started, dispatching on the thunk in each slot; inputs that do
// not fit a slot live in the frame (allocated at the spawn when it is in
// a loop) and the slot points to them.
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
