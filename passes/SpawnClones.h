//===- SpawnClones.h - ws-lower: a spawning function's clone -----*- C++ -*-===//
//
// Cilk's fast clone: a spawning function's body moves into a clone that
// takes the tail as a hidden first argument, and the function becomes the
// entry point for callers that do not know the tail: it asks the runtime
// for it, or hands the call to the workers on a thread they do not run.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SPAWNCLONES_H
#define WSFF_SPAWNCLONES_H

#include "LowerRuntime.h"

#include "llvm/IR/Function.h"

namespace wsff {

/// F's clone (F.ws); F is left as the entry point.
llvm::Function *makeClone(llvm::Function &F, const Runtime &RT);

} // namespace wsff

#endif
