//===- SpawnRegion.h - One ws_spawn, from markers to task ------*- C++ -*-===//
//
// A spawn in the IR is an ordinary call bracketed by markers (see ws.h):
//
//   call @__ws_spawn_begin(ptr %res, ptr @fn)
//   ...arguments evaluated here: they stay in the parent...
//   %r = call @fn(args)            <- the spawned call
//   store %r, ptr %res             <- its result handling
//   call @__ws_spawn_end()
//
// The spawned call becomes the body of a task, a function of the tail it
// spawns from and of the values it uses from the parent (the live-ins).
// The parent writes the live-ins into the task's deque slot (ws/abi.h) and
// publishes it; a thief runs the thunk, which reads them back and calls the
// body with the thief's own tail; the parent's sync calls the body directly
// when the task was not stolen.
//
// When the result handling is one store of the call's value and the value
// fits in the slot ("value" tasks), the body returns it and the parent
// makes the store at the sync: on the fast path the value never goes
// through memory, and after a steal the thunk has left it in the slot.
// Otherwise the body does the result handling itself through the live-ins.
// Live-ins that do not fit in the slot, or that a call takes by value
// (byval: the callee's copy must outlive the slot, which the body's own
// spawns reuse), go to a descriptor in the spawning frame instead, and the
// slot holds a pointer to it.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SPAWNREGION_H
#define WSFF_SPAWNREGION_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

namespace wsff {

/// Spawning functions and their clones taking the tail as a hidden first
/// argument: calls of a function made where the tail is known go to its
/// clone.
using CloneMap = llvm::DenseMap<llvm::Function *, llvm::Function *>;

struct SpawnSite {
  unsigned Index = 0;
  llvm::CallInst *Begin = nullptr;
  llvm::CallInst *End = nullptr;
  llvm::CallBase *Call = nullptr; ///< the spawned call
  llvm::DebugLoc Loc;             ///< the ws_spawn's
  /// Values of the parent the task uses, captured at the spawn.
  llvm::SmallVector<llvm::Value *, 8> LiveIns;
  /// Per live-in: the byval type copied into the frame descriptor, or
  /// null, and the alignment the call promised for it.
  llvm::SmallVector<llvm::Type *, 8> ByvalCopy;
  llvm::SmallVector<llvm::MaybeAlign, 8> ByvalAlign;
  /// What leaves the parent once every spawn is outlined: the task's
  /// instructions (the call first), the allocas only it uses, and the
  /// debug and lifetime markers of the region.
  llvm::SmallVector<llvm::Instruction *, 16> Task;
  llvm::SmallVector<llvm::AllocaInst *, 4> Temps;
  llvm::SmallVector<llvm::Instruction *, 8> Dropped;
  /// Value tasks: where and how the parent stores the result at the sync.
  llvm::Value *ResultPtr = nullptr;
  llvm::Type *ResultTy = nullptr;
  llvm::Align ResultAlign;
  /// The live-ins, as laid out in the slot's payload or in the frame
  /// descriptor (InFrame; the payload then holds a pointer to it).
  llvm::StructType *LayoutTy = nullptr;
  /// Per live-in, its field in LayoutTy (padding fields come between);
  /// and the alignment the layout needs.
  llvm::SmallVector<unsigned, 8> FieldIndex;
  llvm::Align LayoutAlign;
  bool InFrame = false;
  llvm::Function *Body = nullptr;
  llvm::Function *Thunk = nullptr;
  /// The frame descriptor: a static alloca, or made at the spawn.
  llvm::AllocaInst *Frame = nullptr;
  bool DynamicFrame = false;
  /// The task may throw: a call of it may unwind (also in a noexcept
  /// function, whose handlers may catch it).  Its thunk then catches the exception for the owner's join, and a
  /// sync catches it around the direct call of the body.
  bool MayThrow = false;
  /// -fws-race: the task stores its call's value through ResultAddr, a
  /// live-in (not a value task); both stores are marked (ResultWriteMD).
  bool Race = false;
  llvm::Value *ResultAddr = nullptr;

  bool returnsValue() const { return ResultPtr != nullptr; }
};

/// The personality of the landing pads the lowering adds to F (the C++
/// one; also for C built with -fexceptions, whose cleanups it runs the
/// same way).  False, with an error, if F has another.
bool setCxxPersonality(llvm::Function &F);

/// Finds the end marker and the spawned call of S.Begin.  On a malformed
/// region reports an error at the begin marker and returns false.  May turn
/// invokes between the call and the end marker into calls (exceptions do not
/// cross a spawn).
bool findSpawnRegion(SpawnSite &S);

/// Checks that the region does no more after the call than handle its
/// result (and moves what the task does not need before the call); reports
/// an error and returns false otherwise.  Leaves valid IR either way.
bool checkSpawnRegion(SpawnSite &S);

/// Splits the region into what stays in the parent and the task, creates
/// the body and the thunk.  ValueTask allows the result to travel as a
/// value (static functions).  Does not touch the parent yet (but for moving
/// what the task does not need before the call), so the next spawn sees the
/// function as written.  Reports an error and returns false if the region
/// does more after the call than handle its result.
bool outlineSpawn(SpawnSite &S, bool ValueTask, const CloneMap &Clones);

/// Erases the task of an outlined spawn from the parent.
void removeTask(SpawnSite &S);

/// A frame descriptor for S's live-ins, made by B, as aligned as they need.
llvm::AllocaInst *allocateFrame(const SpawnSite &S, llvm::IRBuilderBase &B);

/// Replaces the region in the parent: writes the task into Slot (and the
/// frame descriptor) and publishes it with Push(Slot), which it returns.
llvm::CallInst *emitSpawn(SpawnSite &S, llvm::Value *Slot, llvm::FunctionCallee Push);

/// The direct call of the body at a sync, with Tail for the task's own
/// spawns: the live-ins as the parent's SSA values (Slot == null), or read
/// from Slot.  Makes the result store of a value task.  With Unwind, an
/// invoke that unwinds there (B is left in its normal destination).
void callBody(const SpawnSite &S, llvm::Value *Tail, llvm::Value *Slot,
              llvm::IRBuilderBase &B, llvm::BasicBlock *Unwind = nullptr);

/// After the join of a stolen value task: the result store, from the slot.
void storeStolenResult(const SpawnSite &S, llvm::Value *Slot,
                       llvm::IRBuilderBase &B);

/// A call of a function that has a clone, made where the tail is Tail,
/// goes to the clone.  Returns the new call, which replaced CB (erased).
llvm::CallBase *redirectToClone(llvm::CallBase &CB, llvm::Function *Clone,
                     llvm::Value *Tail);

/// Drops the function attributes that calls into the runtime make false:
/// pushes and takes write memory and synchronize with thieves, and a join
/// runs other tasks, which may free memory or call back.  For a spawning
/// function, and for its task bodies and thunks, which start with its
/// attributes.
void dropAttributesTheRuntimeBreaks(llvm::Function &F);

} // namespace wsff

#endif
