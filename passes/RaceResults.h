//===- RaceResults.h - -fws-race: result objects no check needs -*- C++ -*-===//
//
// A local whose address goes only to spawns as their result's address (the
// ws_spawn(sum[i], f, ...) of a loop) is touched by the function's own
// accesses and by each task's one store of its value.  A race on it is then
// two tasks whose results share bytes, or an access of the function that
// shares bytes with the result of a task that may be outstanding there.
// Where ScalarEvolution shows neither can happen, none of those accesses
// needs a check, and a function left without checks keeps no SP-bags hooks
// (skynet's and nqueens' result arrays; docs/race.md, "What is not
// checked").
//
// ws-lower marks what this needs: the parent's store of the result's
// address into the slot or frame block (ResultAddrMD, naming the body), the
// body's store of the value (ResultWriteMD), and a call of
// __ws_race_synced where a sync has taken every task back.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_RACERESULTS_H
#define WSFF_RACERESULTS_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Module.h"

namespace wsff {

struct UncheckedResults {
  /// Locals none of whose accesses needs a check.
  llvm::DenseSet<const llvm::Value *> Objects;
  /// Bodies whose store of the task's value (ResultWriteMD) needs none.
  llvm::DenseSet<const llvm::Function *> Bodies;
};

UncheckedResults
findUncheckedResults(llvm::Module &M,
                     llvm::function_ref<llvm::ScalarEvolution &(llvm::Function &)> SE);

/// Removes ws-lower's marks: the metadata and the __ws_race_synced calls.
void dropResultMarks(llvm::Module &M);

} // namespace wsff

#endif
