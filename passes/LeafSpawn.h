//===- LeafSpawn.h - A spawn's leaf test before its push --------*- C++ -*-===//
//
// Most tasks of a recursion without a cut-off are leaves: skynet's nodes
// above the leaves spawn nine leaves each, and a leaf returns its argument
// at once.  Pushing such a task, taking it back and calling it costs more
// than the leaf itself.  ws-leafsplit already moves a spawning function's
// leaf test into its callers (LeafSplit.h); this does the same for spawns:
// ws-lower puts a placeholder test in front of a spawn, and, where it says
// "leaf", the placeholder's value is stored as the spawned call would have
// and nothing is pushed.  Running a task at its spawn is the serial
// elision's order, so the program's result cannot change.
//
// ws-lower does it only where nothing is lost: in a function whose syncs
// already take back an unknown number of tasks (spawns in a loop; a
// spawn that may or may not have run does not change how it syncs), for
// a spawn of a function that has a clone, with a region of the plain
// shape (side-effect-free arguments, the call, at most one store of its
// value, the end marker) in one block.  ws-leafsplit, which finds the
// leaf tests once the optimizer has shaped the code, replaces the
// placeholders with the test and the value of the callee's clone, or with
// "not a leaf"; placeholders that reach the end of the pipeline (no
// ws-leafsplit ran) become "not a leaf" there.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_LEAFSPAWN_H
#define WSFF_LEAFSPAWN_H

#include "LowerRuntime.h"
#include "SpawnRegion.h"

#include "llvm/IR/PassManager.h"

namespace wsff {

/// Is I nothing but a value (no side effects, no memory read but a simple
/// load; no call, alloca, phi or EH pad)?  Such instructions may compute
/// a spawn's arguments before its begin marker, and be copied from a
/// callee's leaf test (LeafSplit.cpp).
bool isPlainValue(const llvm::Instruction &I);

/// Puts a placeholder leaf test in front of each spawn of F of the shape
/// above (F's syncs must be dynamic: the caller checks).  True if any.
bool addLeafSpawnTests(llvm::Function &F, const CloneMap &Clones,
                       const Runtime &RT);

/// The placeholders are `i1 __ws_leaf_test(ptr clone, args...)` and
/// `T __ws_leaf_value.<T>(ptr clone, args...)`, the clone's arguments but
/// its hidden tail.

/// Replaces every placeholder left in M by "not a leaf" (and the values,
/// now unreachable, by poison).
bool dropLeafSpawnTests(llvm::Module &M);

/// The pass at the end of the pipeline that does it.
class LeafSpawnDropPass : public llvm::PassInfoMixin<LeafSpawnDropPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return dropLeafSpawnTests(M) ? llvm::PreservedAnalyses::none()
                                 : llvm::PreservedAnalyses::all();
  }
};

} // namespace wsff

#endif
