//===- DebugInfoMutator.h - Debug info, as clang -g leaves it --*- C++ -*-===//
//
// The lowering moves instructions into task bodies, drops debug intrinsics
// and markers of the region, erases temporaries with their dbg.declare,
// and places its own code at the spawn's or the function's location: all
// of it only happens with debug info, which llvm-stress never generates.
// This strategy gives a function a subprogram, locations, and variables
// described by dbg.value and dbg.declare of its values and allocas.
// keepDebugInfoValid() then gives every call of such a function a location
// (the verifier wants one on calls in a function with debug info), so the
// other mutators need not care.
//
//===----------------------------------------------------------------------===//
#ifndef WSFUZZ_DEBUGINFOMUTATOR_H
#define WSFUZZ_DEBUGINFOMUTATOR_H

#include "llvm/FuzzMutate/IRMutator.h"

namespace wsfuzz {

class DebugInfoMutator : public llvm::IRMutationStrategy {
public:
  uint64_t getWeight(size_t CurrentSize, size_t MaxSize,
                     uint64_t CurrentWeight) override {
    return 15;
  }
  using IRMutationStrategy::mutate;
  void mutate(llvm::Function &F, llvm::RandomIRBuilder &IB) override;
};

/// Gives each call in a function with a subprogram a location, if it has
/// none.
void keepDebugInfoValid(llvm::Module &M);

} // namespace wsfuzz

#endif
