//===- ViewReach.h - Which functions may reach a reducer's views -*- C++ -*-===//
//
// wsff runs an unstolen child at its sync, after the continuation that
// follows it in serial order; a reducer keeps the serial order only if it
// learns where such a child begins and ends (__ws_child_begin and
// __ws_child_end, ws/abi.h).  ws-lower marks the sync's direct calls of a
// spawning function only where the function may reach a reducer's views:
// where it calls code the module cannot see (a declaration that is not a
// known library function or the runtime's, an indirect call, a definition
// the linker may replace), or a function that may.  The entry points
// around a fast-path OpenMP task's code do not count (OmpTasks.h,
// isOmpFastPathEntry).  fib reaches none and
// keeps its fast path as it was.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_VIEWREACH_H
#define WSFF_VIEWREACH_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Module.h"

namespace wsff {

class ViewReach {
public:
  ViewReach(llvm::Module &M,
            llvm::function_ref<const llvm::TargetLibraryInfo &(llvm::Function &)> TLI);
  bool mayReach(const llvm::Function &F) const { return Reaching.count(&F); }

private:
  llvm::SmallPtrSet<const llvm::Function *, 16> Reaching;
};

} // namespace wsff

#endif
