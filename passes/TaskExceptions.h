//===- TaskExceptions.h - C++ exceptions at a function's syncs --*- C++ -*-===//
//
// What ws-lower adds to a spawning function that may throw (C++; a C
// function is nounwind and gets none of it):
//
// * An exception that leaves the function waits for its outstanding tasks:
//   a call that may throw while spawns are outstanding unwinds to a cleanup
//   whose resume is a sync point, as a return is.
// * A task's exception reaches the spawning function at its sync.  The
//   thunk catches it on the thief (SpawnRegion), __ws_join returns it; at
//   the sync a catch-all landing pad catches it around the direct call of
//   the body.  The sync goes on taking back its other tasks, keeping the
//   exception of the serially first task that threw (syncs take tasks back
//   most recent first, so each exception caught replaces the one kept),
//   and throws it again once every task is back: to the handler of an
//   invoked ws_sync(), or out of the function.  At a resume, where the
//   function's own exception is already on its way, the tasks' is still
//   the serially first (they were spawned before the throw): it replaces
//   the function's, as in the serial elision.
// * A sync with a single task to take back needs none of this: the body's
//   exception leaves the direct call as any callee's does.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_TASKEXCEPTIONS_H
#define WSFF_TASKEXCEPTIONS_H

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

namespace wsff {

/// Makes Call, which may throw while spawns are outstanding, an invoke
/// whose landing pad resumes at once (ws-lower syncs before the resume).
/// Returns the invoke, which replaced Call (erased).
llvm::InvokeInst *addUnwindCleanup(llvm::CallInst &Call);

/// The exceptions of one function's tasks, held between the tasks of a
/// sync.
class TaskExceptions {
public:
  explicit TaskExceptions(llvm::Function &F) : F(F) {}

  /// At the start of a sync, before At: nothing kept.
  void startSync(llvm::Instruction *At);
  /// A landing pad that catches what a task's body threw, keeps it, and
  /// goes on to Cont.
  llvm::BasicBlock *catchInto(llvm::BasicBlock *Cont);
  /// A landing pad, placed before Before, that catches what a task's body
  /// threw; B is left after it, Captured is the exception (a pointer for
  /// keep and rethrow).  The caller ends the block.
  llvm::BasicBlock *catchCaptured(llvm::IRBuilderBase &B, llvm::Value *&Captured,
                                  llvm::BasicBlock *Before);
  /// Keeps Captured (what __ws_join returned for a task that threw).
  void keep(llvm::IRBuilderBase &B, llvm::Value *Captured);
  /// At the end of a sync, B in a block that ends before At: throws the
  /// exception kept, if any (Unwind: the handler of an invoked ws_sync; at
  /// a resume, or at a sync where landing pad InFlight caught the
  /// function's own exception, in place of the one on its way); B is then
  /// where the sync goes on.
  void finishSync(llvm::IRBuilderBase &B, llvm::Instruction *At,
                  llvm::BasicBlock *Unwind, llvm::LandingPadInst *InFlight = nullptr);
  /// Throws Captured from B's block, to Unwind (the handler of the invoke
  /// At) or out of the function; where nothing may leave the function (a
  /// noexcept one), to std::terminate, as in the serial elision.
  void rethrow(llvm::IRBuilderBase &B, llvm::Value *Captured,
               llvm::BasicBlock *Unwind, llvm::Instruction *At);

private:
  llvm::AllocaInst *kept();
  llvm::BasicBlock *terminatePad();
  llvm::FunctionCallee runtime(llvm::StringRef Name, llvm::Type *Ret,
                               llvm::ArrayRef<llvm::Type *> Params);

  llvm::Function &F;
  llvm::AllocaInst *Kept = nullptr;
  llvm::BasicBlock *Terminate = nullptr;
};

/// A sync (an invoke of SyncFn) at the start of landing pad LP, whose
/// exception is then on its way: LP's block ends with it, it goes on to
/// the rest of the pad, and a task's exception unwinds to a copy of LP
/// whose value joins LP's there (the serially first exception goes on,
/// through the same handlers and cleanups).  The caller records the
/// sync as one where LP's exception is on its way.
llvm::InvokeInst *syncAtLandingPad(llvm::LandingPadInst &LP, llvm::Function *SyncFn,
                                   llvm::DebugLoc Loc);

/// A landing pad for a sync placed right before Destroy, a destructor call
/// that ends a live object's life (a temporary, a local that a task may
/// reach): where the sync rethrows a task's exception, the object is
/// destroyed there too, as the normal path would, and the exception goes on
/// to Handler's code (Handler: the landing pad in scope, whose own cleanups
/// do not include the object; null: out of the function).  In the serial
/// elision the task threw before the object was made.  Handler itself if
/// the function's personality is not C++'s.
llvm::BasicBlock *destroyingPad(llvm::CallInst &Destroy, llvm::BasicBlock *Handler);

/// The handler an invoked sync point unwinds to, or null.
llvm::BasicBlock *unwindOf(llvm::Instruction *At);

/// Where an invoke unwinds from a new block NewPred like the sync point
/// At's block: the handler's phis get the same values for it.
void addUnwindPredecessor(llvm::BasicBlock *Unwind, llvm::BasicBlock *NewPred,
                          llvm::Instruction *At);

} // namespace wsff

#endif
