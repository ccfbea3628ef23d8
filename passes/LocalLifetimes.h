//===- LocalLifetimes.h - Syncs before a reached local dies -----*- C++ -*-===//
//
// A function that spawns syncs implicitly before it returns; but the C++
// destructors of its locals run before the return, and a task may still
// use such a local (ws_spawn_void(use, std::ref(obj)), a vector's data, a
// function-scope ws::reducer).  ws-lower therefore also syncs before the
// end of life of a local object -- a destructor called on it, or
// llvm.lifetime.end -- when a task that may reach it may be outstanding:
//
// * Which locals a task may reach: those whose address it receives, or
//   finds in memory it receives or reaches (the spawned call's arguments,
//   followed back through the function's own stores, copies and calls;
//   a call's result may point into any object given to it, a copy or move
//   constructor only copies).  Flow-insensitive, per spawn.
// * When: a forward dataflow marks a reached local "pinned" at its spawn
//   if it may be alive there; a sync unpins everything; the end of life of
//   a pinned local gets a sync right before it.  A local whose life ended
//   before the spawn (a temporary of an earlier statement, the previous
//   iteration's) is not pinned.
// * On an unwinding path (a landing pad's cleanups destroy the local) the
//   sync is at the start of the landing pad, an invoke: a task's exception
//   replaces the one on its way (serially first) and runs the same
//   cleanups.
//
// Which locals a task reaches is TaskReach's; C++ spawns are made plain IR
// first (SpawnHolder), so that it sees the copies and addresses they keep.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_LOCALLIFETIMES_H
#define WSFF_LOCALLIFETIMES_H

#include "SpawnRegion.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace wsff {

/// The syncs addLifetimeSyncs made.
struct LifetimeSyncs {
  llvm::SmallVector<llvm::CallBase *, 4> Syncs;
  /// Those at the start of a landing pad, with the pad: its exception is
  /// on its way when the sync runs.
  llvm::DenseMap<llvm::Instruction *, llvm::LandingPadInst *> Unwinding;
};

/// Adds a call (or invoke) of SyncFn before the end of life of each local
/// that an outstanding task of Sites may reach; Syncs are F's syncs so far.
LifetimeSyncs addLifetimeSyncs(llvm::Function &F, llvm::ArrayRef<SpawnSite> Sites,
                               llvm::ArrayRef<llvm::CallBase *> Syncs,
                               llvm::Function *SyncFn);

/// Once the spawns are outlined: adds a sync before each llvm.stackrestore
/// of F's own (the end of a variable-length array's scope) that frees the
/// frame block of a spawn that may be outstanding there (a spawn in a
/// loop whose arguments do not fit the slot; SpawnSite::DynamicFrame).
LifetimeSyncs addFrameSyncs(llvm::Function &F, llvm::ArrayRef<SpawnSite> Sites,
                            llvm::ArrayRef<llvm::CallBase *> Syncs,
                            llvm::Function *SyncFn);

} // namespace wsff

#endif
