//===- SyncUnroll.h - ws-sync-unroll: a short sync loop unrolled -*- C++ -*-===//
//
// A sync after spawns in a loop takes its tasks back in a loop of its own
// (SyncLowering.cpp, lowerDynamic), down to the tail the function entered
// with: the sync cannot know how many spawns ran.  Once the optimizer has
// unrolled a spawn loop of constant count (skynet's nine), the sync loop's
// count is a constant too, but its body (a take, a call) is above the
// unroller's default size, and it stays a loop: three induction variables
// and a compare per task.  ws-lower marks the sync loop (SyncLoopMD on its
// back edges, which loop-simplify carries to the one latch); ws-sync-unroll,
// late in the function simplification pipeline, asks for a full unroll
// (llvm.loop.unroll.full) of each marked loop that runs at most
// MaxSyncUnroll times with a small body, the full unroller runs at once on
// the loops so asked only, and ws-sync-unroll<strip> takes back a request
// the unroller did not carry out (-fws-scale's frame-resident tasks), so
// that no later pass warns of a transformation nobody wrote.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SYNCUNROLL_H
#define WSFF_SYNCUNROLL_H

#include "llvm/IR/PassManager.h"

namespace wsff {

class SyncUnrollPass : public llvm::PassInfoMixin<SyncUnrollPass> {
  bool Strip;

public:
  explicit SyncUnrollPass(bool Strip = false) : Strip(Strip) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace wsff

#endif
