//===- ResultLoads.h - ws-result-loads: result memory read in scalars -*- C++ -*-===//
//
// A sync that takes its tasks back runs each child and stores its result,
// eight bytes at a time, just before the code after the sync reads them.
// When the vectorizers have turned that read into 16-byte loads (a sum of
// the results: skynet's ten, nqueens' n), each load spans two stores still
// in the store buffer, which the CPU cannot forward: the load waits until
// both are written to the cache, once per sync.  ws-lower marks the memory
// a value task's result goes to (an alloca of the spawning function,
// ResultObjectMD); ws-result-loads, after the vectorizers, splits each
// vector load of marked memory into one load per element (unordered atomic,
// so that codegen does not merge them again), and inserts them into the
// vector.  The arithmetic stays vectorized.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_RESULTLOADS_H
#define WSFF_RESULTLOADS_H

#include "llvm/IR/PassManager.h"

namespace wsff {

class ResultLoadsPass : public llvm::PassInfoMixin<ResultLoadsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace wsff

#endif
