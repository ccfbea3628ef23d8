//===- LowerRuntime.h - ws-lower: the runtime as the module sees it -*- C++ -*-===//
//
// The runtime's entry points that ws-lower calls, declared in the module
// with the types of <ws/abi.h>, and the check that the user's markers are
// the declarations of <ws/ws.h>.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_LOWERRUNTIME_H
#define WSFF_LOWERRUNTIME_H

#include "WsOptions.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <functional>

namespace wsff {

/// The runtime entry points, declared in the module.
struct Runtime {
  llvm::FunctionCallee Tail, Push, Take, Join;
  /// A variadic function's tail (it cannot be submitted); an entry
  /// point's call handed to the workers; the reducer views' test and hooks
  /// around a sync's direct call of a task body.
  llvm::FunctionCallee TailOwned, Submit, ViewsAbove, ChildBegin, ChildEnd;
  /// __ws_publish_tail, for variants whose push and take do not store the
  /// tail where __ws_tail finds it; null otherwise.
  llvm::Function *Publish = nullptr;
  /// Which calls cannot enter spawning code (so need no published tail).
  std::function<const llvm::TargetLibraryInfo &(llvm::Function &)> TLI;
  /// ws_tls_spawns, when spawns are counted (-fws-stats).
  llvm::GlobalVariable *SpawnCount = nullptr;
  /// -fws-race: the race runtime's procedure and spawn hooks (null
  /// otherwise); every child then runs between ChildBegin and ChildEnd.
  llvm::FunctionCallee RaceEnter, RaceLeave, RaceSpawn, RaceSynced;
  bool Race = false;
  bool race() const { return Race; }
};


/// -fws-stats: one more spawn on this thread's count (no-op without).
void countSpawn(llvm::IRBuilderBase &B, const Runtime &RT);

/// Declares the entry points ws-lower calls for Opts' variant in M: false,
/// with an error, where the module declares one otherwise.
bool declareRuntime(llvm::Module &M, const WsOptions &Opts, Runtime &RT);

/// The marker Name must be the declaration of <ws/ws.h> (type Expected, or
/// Earlier, the begin marker's type before it returned the function), and
/// only called: false, with an error at a use, where it is not.  Invoked
/// spawn markers become calls.
bool checkBuiltin(llvm::Module &M, llvm::StringRef Name,
                  llvm::FunctionType *Expected,
                  llvm::FunctionType *Earlier = nullptr);

} // namespace wsff

#endif
