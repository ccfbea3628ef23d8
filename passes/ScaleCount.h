//===- ScaleCount.h - ws-scale-count: count IR instructions ----*- C++ -*-===//
//
// ws-clang -fws-scale and -fws-scale=instructions: the DAG (work, span,
// which path is critical) in IR instructions executed instead of time, deterministic and blind to a loaded machine
// (like Cilkscale's cilkscale-instructions).  At the optimizer's end, every
// function of the module adds the number of IR instructions it executes to
// a thread-local counter, __ws_scale_icount, which the ws-scale hooks read
// as their clock.  A block adds its count in pieces, each before the call or
// the terminator that ends it, so that instructions before a spawn hook are
// charged before the spawn.  Not counted: phis, assume-like intrinsics
// (debug, lifetime, assume) and the hooks; code of modules compiled without
// the flag (libc, the runtime's slow paths) counts nothing.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SCALECOUNT_H
#define WSFF_SCALECOUNT_H

#include "llvm/IR/PassManager.h"

namespace wsff {

class ScaleCountPass : public llvm::PassInfoMixin<ScaleCountPass> {
  int Mark; ///< __ws_scale_counted: 1 instructions only, 2 with a time clock

public:
  explicit ScaleCountPass(int Mark = 1) : Mark(Mark) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace wsff

#endif
