//===- SpawnRegion.h - One ws_spawn, from markers to task ------*- C++ -*-===//
//
// A spawn in the IR is an ordinary call bracketed by markers (see ws.h):
//
//   call @__ws_spawn_begin(ptr %res, ptr @fn)
//   ...arguments evaluated here: they stay in the parent...
//   %r = call @fn(args)            <- the spawned call
//   store %r, ptr %res             <- its result handling: part of the task
//   call @__ws_spawn_end()
//
// The spawned call and the instructions that depend on it become the body
// of the task, a function of the values they use from the parent (the
// live-ins).  The parent stores the live-ins into a task descriptor
// { ws_task header; live-ins... } and pushes it; a thief runs the thunk,
// which loads them back and calls the body; the parent's sync calls the
// body directly when the task was not stolen.  Arguments passed byval are
// copied into the descriptor at the spawn, as a call would copy them.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SPAWNREGION_H
#define WSFF_SPAWNREGION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

namespace wsff {

struct SpawnSite {
  unsigned Index = 0;
  llvm::CallInst *Begin = nullptr;
  llvm::CallInst *End = nullptr;
  llvm::CallBase *Call = nullptr; ///< the spawned call
  /// Values of the parent the task uses, captured at the spawn.
  llvm::SmallVector<llvm::Value *, 8> LiveIns;
  /// Per live-in: the byval type copied into the descriptor, or null, and
  /// the alignment the call promised for it.
  llvm::SmallVector<llvm::Type *, 8> ByvalCopy;
  llvm::SmallVector<llvm::MaybeAlign, 8> ByvalAlign;
  /// What leaves the parent once every spawn is outlined: the task's
  /// instructions (the call first), the allocas only it uses, and the
  /// debug and lifetime markers of the region.
  llvm::SmallVector<llvm::Instruction *, 16> Task;
  llvm::SmallVector<llvm::AllocaInst *, 4> Temps;
  llvm::SmallVector<llvm::Instruction *, 8> Dropped;
  llvm::StructType *DescTy = nullptr;
  llvm::Function *Body = nullptr;
  llvm::Function *Thunk = nullptr;
  /// Descriptor storage: a static alloca, or created at the spawn.
  llvm::AllocaInst *Desc = nullptr;
  bool DynamicDesc = false;
  /// In a dynamic function, descriptors are chained (field PrevField) so a
  /// sync knows which one it is taking back.
  bool Chained = false;
  static constexpr unsigned PrevField = 2;

  /// Field of the descriptor holding live-in I.
  unsigned fieldOf(unsigned I) const { return (Chained ? 3 : 2) + I; }
};

/// Finds the end marker and the spawned call of S.Begin.  On a malformed
/// region reports an error at the begin marker and returns false.  May turn
/// invokes between the call and the end marker into calls (exceptions do not
/// cross a spawn).
bool findSpawnRegion(SpawnSite &S);

/// Splits the region into what stays in the parent and the task, creates
/// the body, the thunk and the descriptor type.  Does not touch the parent
/// yet (but for moving what the task does not need before the call), so
/// the next spawn sees the function as written.  Reports an error and
/// returns false if the region does more after the call than handle its
/// result.
bool outlineSpawn(SpawnSite &S);

/// Erases the task of an outlined spawn from the parent.
void removeTask(SpawnSite &S);

/// Replaces the region in the parent: fills the descriptor (S.Desc, or a
/// new alloca at the spawn when S.DynamicDesc), links it in front of the
/// chain at Last when S.Chained, and calls Push(W, desc).
void emitSpawn(SpawnSite &S, llvm::Value *W, llvm::FunctionCallee Push,
               llvm::AllocaInst *Last);

/// Drops the function attributes that calls into the runtime make false:
/// pushes and takes write memory and synchronize with thieves, and a join
/// runs other tasks, which may free memory or call back.  For a spawning
/// function, and for its task bodies and thunks, which start with its
/// attributes.
void dropAttributesTheRuntimeBreaks(llvm::Function &F);

/// Arguments for a direct call of the body at a sync: the live-ins as SSA
/// values (static descriptors), or loaded from Desc.
llvm::SmallVector<llvm::Value *, 8>
bodyArguments(const SpawnSite &S, llvm::Value *Desc, bool LoadFromDesc,
              llvm::IRBuilderBase &B);

} // namespace wsff

#endif
