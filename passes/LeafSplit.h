//===- LeafSplit.h - ws-leafsplit: a spawning function's leaf test inline -*- C++ -*-===//
//
// A spawning function often starts by returning at once on small inputs
// (fib's `if (n < 2) return n`), and most of its calls are such leaves.
// Its frame, its callee-saved registers and the call itself are then all
// overhead.  ws-leafsplit moves the body of each clone ws-lower made into
// a function of its own and leaves behind an always-inline entry that
// runs the leaf test, returns the leaf's value, or calls the body: the
// callers (the body itself among them) pay only the test for a leaf.
// Only a short test of side-effect-free instructions (loads included) and a
// return of values they computed are copied.  Runs after the CGSCC
// pipeline (the body's own tail recursion has already become a loop), then
// inlines the entries.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_LEAFSPLIT_H
#define WSFF_LEAFSPLIT_H

#include "llvm/IR/PassManager.h"

namespace wsff {

class LeafSplitPass : public llvm::PassInfoMixin<LeafSplitPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace wsff

#endif
