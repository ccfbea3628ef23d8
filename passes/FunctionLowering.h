//===- FunctionLowering.h - ws-lower: one function's spawns and syncs -*- C++ -*-===//
//
// The lowering of one function: which spawns are outstanding where (a
// dataflow over the CFG), then every sync, return and resume takes back
// the spawns still outstanding (FunctionLowering.cpp; the take-back code
// itself: SyncLowering.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_FUNCTIONLOWERING_H
#define WSFF_FUNCTIONLOWERING_H

#include "LowerRuntime.h"
#include "SpawnRegion.h"
#include "TaskExceptions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <optional>

namespace wsff {

using namespace llvm;

/// Outstanding spawns at a program point: a known sequence of spawn sites,
/// or unknown (differs between paths, or unbounded).
struct SpawnStack {
  enum Kind { Unreached, Known, Unknown } K = Unreached;
  SmallVector<unsigned, 4> Sites;

  bool operator==(const SpawnStack &O) const {
    return K == O.K && (K != Known || Sites == O.Sites);
  }
  void join(const SpawnStack &O) {
    if (O.K == Unreached || K == Unknown)
      return;
    if (K == Unreached || O.K == Unknown)
      *this = O;
    else if (Sites != O.Sites)
      K = Unknown, Sites.clear();
  }
};

/// Does F allocate on the stack dynamically (variable-length arrays, its
/// own stacksave), apart from the lowering's frame blocks?
bool hasOwnDynamicStack(Function &F);

class FunctionLowering {
public:
  /// TailArg: the hidden argument of a clone, or null (the function finds
  /// its tail at entry).  MarkViews: the function may reach a reducer
  /// (ViewReach), so its syncs mark where a child runs.
  FunctionLowering(Function &F, const Runtime &RT, const CloneMap &Clones,
                   Argument *TailArg, bool MarkViews = false)
      : F(F), RT(RT), Clones(Clones), TailArg(TailArg), MarkViews(MarkViews) {}
  /// Is every spawn and sync of F well formed?  Errors for those that are
  /// not; changes nothing a later run() would not.
  bool check();
  bool run();
  /// Do F's syncs take back an unknown number of tasks (a dynamic sync:
  /// spawns in a loop, or that differ between paths)?  On a checked F.
  bool syncsDynamically() {
    if (!collect())
      return false;
    analyzeStacks();
    return Dynamic;
  }

private:
  bool collect();
  SpawnStack transfer(Instruction &I, SpawnStack St, bool Record);
  void analyzeStacks();
  bool addUnwindCleanups();
  void markCyclicSites();
  Function *syncFunction();
  void syncBeforeLocalsDie();
  bool syncBeforeFramesDie();
  void syncAtHandlers();
  void syncBeforeSuspends();
  SpawnStack stackBefore(Instruction *I);
  bool resultCannotRace(const SpawnSite &S);
  void refreshAfterSuspends();
  /// The tail at entry (or at the last resumption of a coroutine), and the
  /// stack saved for frame blocks.
  Value *entryTail(IRBuilderBase &B);
  Value *savedStack(IRBuilderBase &B);
  void keepTaskFrames();
  void setUpTail();
  void allocateFrames(bool OwnDynamicStack);
  void pushSpawn(SpawnSite &S);
  void redirectCalls(llvm::Value *FixedTail = nullptr);
  void replaceInSites(Value *Old, Value *New);
  DebugLoc locationFor(Instruction *At) const;
  Value *loadTail(IRBuilderBase &B) { return B.CreateLoad(B.getPtrTy(), TailAddr, "ws.tail"); }
  CallInst *emitTake(IRBuilderBase &B, Value *Slot);
  /// Where a copy of a body's call made in a block unwinds (null: a call).
  using UnwindFor = function_ref<BasicBlock *(BasicBlock *CallBlock)>;
  /// What becomes of an exception the marked copy caught, once the views
  /// are put back: B ends the block.
  using OnCaught = function_ref<void(IRBuilderBase &B, Value *Captured)>;
  void runChild(const SpawnSite &S, Value *Slot, Value *FromSlot, IRBuilderBase &B,
                UnwindFor Unwind, OnCaught Caught);
  void lowerStatic(Instruction *At, ArrayRef<unsigned> Stack);
  void lowerDynamic(Instruction *At);
  void publishTail(llvm::Value *FixedTail = nullptr);
  void finishRace();

  Function &F;
  const Runtime &RT;
  const CloneMap &Clones;
  Argument *TailArg;
  bool MarkViews;
  SmallVector<SpawnSite, 4> Sites;
  /// A task is pushed at its end marker: only from there is it outstanding
  /// (an exception among the arguments unwinds before the spawn).
  DenseMap<Instruction *, unsigned> SiteOfEnd;
  SmallVector<CallBase *, 4> Syncs; ///< calls, or invokes in a try block
  /// Syncs made at the start of a landing pad (LocalLifetimes), with the
  /// pad: its exception is on its way, as at a resume.
  DenseMap<Instruction *, LandingPadInst *> Unwinding;
  SmallVector<CallInst *, 4> Ends;
  /// Can an exception leave F (C++)?  Then its syncs pass on its tasks'.
  bool MayThrow = false;
  std::optional<TaskExceptions> Exceptions;
  DenseMap<BasicBlock *, SpawnStack> In;
  /// Sync points (explicit syncs, returns, resumes) and their stacks.
  SmallVector<std::pair<Instruction *, SpawnStack>, 8> SyncPoints;
  bool Dynamic = false;
  /// The owner's tail: where the next spawn goes (an alloca that mem2reg
  /// turns into registers), and its value at entry.
  AllocaInst *TailAddr = nullptr;
  Value *EntryTail = nullptr;
  Value *SavedStack = nullptr;
  /// A coroutine's suspension points (llvm.coro.suspend), and where the
  /// entry tail and saved stack are kept: each resumption has its own.
  SmallVector<IntrinsicInst *, 2> Suspends;
  AllocaInst *EntryTailAddr = nullptr;
  AllocaInst *SavedStackAddr = nullptr;
};


} // namespace wsff

#endif
