//===- SyncLowering.cpp - ws-lower: taking spawns back at a sync ----------===//
//
// At a sync (or a return, a resume), each spawn still outstanding is taken
// back: when it was not stolen its body runs here, directly; when it was,
// the join waits for the thief.  A static stack takes them back one by one,
// most recent first; a dynamic one loops down to the entry tail.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "AbiLinker.h"
#include "AbiNames.h"
#include "DeltaRecord.h"
#include "Diagnose.h"
#include "LocalLifetimes.h"
#include "SpawnHolder.h"
#include "SpawnRegion.h"
#include "TaskExceptions.h"
#include "ViewReach.h"

#include "ws/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "ws-lower"

using namespace llvm;

namespace wsff {

static MDNode *unlikelyBranch(LLVMContext &Ctx) {
  return MDBuilder(Ctx).createBranchWeights(1, 1 << 20);
}

CallInst *FunctionLowering::emitTake(IRBuilderBase &B, Value *Slot) {
  CallInst *Take = B.CreateCall(RT.Take, {Slot}, "ws.stolen");
  Take->setMetadata(TakeSiteMD, MDNode::get(B.getContext(), {}));
  return Take;
}

/// The direct call of a task body at a sync, which runs the child after
/// the continuation that follows it in serial order.  Where the function
/// may reach a reducer, a second copy runs it between the hooks that keep
/// an ordered view in serial order, when a view needs them; the first copy
/// is the call every function makes (ws-tre still finds it).  Leaves B at
/// the end of both.  A body that may throw: the plain copy unwinds where
/// Unwind says; the marked one to a pad that puts the views back before
/// Caught passes the exception on (an exception must not leave the
/// continuation's updates set aside).
void FunctionLowering::runChild(const SpawnSite &S, Value *Slot, Value *FromSlot,
                                IRBuilderBase &B, UnwindFor Unwind, OnCaught Caught) {
  if (!MarkViews && !RT.race()) {
    callBody(S, Slot, FromSlot, B, Unwind(B.GetInsertBlock()));
    return;
  }
  LLVMContext &Ctx = F.getContext();
  // Right after the run block, so that the function reads in the order it
  // runs (the stolen path after the run).
  BasicBlock *Next = B.GetInsertBlock()->getNextNode();
  BasicBlock *Views = BasicBlock::Create(Ctx, "ws.run.views", &F, Next);
  BasicBlock *Done = BasicBlock::Create(Ctx, "ws.ran", &F, Next);
  DebugLoc DL = B.getCurrentDebugLocation();
  if (RT.race()) {
    // Every child runs between the hooks: the race runtime's bags change
    // there (its views too, each child apart).
    B.CreateBr(Views);
  } else {
    BasicBlock *Plain = BasicBlock::Create(Ctx, "ws.run.plain", &F, Views);
    Value *Above = B.CreateCall(RT.ViewsAbove, {Slot}, "ws.views.above");
    B.CreateCondBr(B.CreateIsNotNull(Above), Views, Plain, unlikelyBranch(Ctx));
    IRBuilder<> P(Plain);
    P.SetCurrentDebugLocation(DL);
    callBody(S, Slot, FromSlot, P, Unwind(Plain));
    P.CreateBr(Done);
  }
  IRBuilder<> V(Views);
  V.SetCurrentDebugLocation(DL);
  Value *Aside = V.CreateCall(RT.ChildBegin, {Slot}, "ws.aside");
  // -fws-race: the task's accesses (its result's store) and its calls are
  // reported at the ws_spawn, not at the sync that runs it.
  if (RT.race() && S.Loc)
    V.SetCurrentDebugLocation(S.Loc);
  BasicBlock *Pad = nullptr;
  if (S.MayThrow && Exceptions) {
    IRBuilder<> T(Ctx);
    Value *Captured;
    Pad = Exceptions->catchCaptured(T, Captured, Done);
    T.SetCurrentDebugLocation(DL);
    T.CreateCall(RT.ChildEnd, {Aside});
    Caught(T, Captured);
  }
  callBody(S, Slot, FromSlot, V, Pad);
  V.SetCurrentDebugLocation(DL);
  V.CreateCall(RT.ChildEnd, {Aside});
  V.CreateBr(Done);
  B.SetInsertPoint(Done);
}

/// Take back each spawn of Stack, most recent first, before At: its slot
/// is the one below the tail.
void FunctionLowering::lowerStatic(Instruction *At, ArrayRef<unsigned> Stack) {
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Unwind = unwindOf(At);
  // A task's exception: with one task and no exception of the function's
  // own on its way, it leaves the direct call (or the join) at once;
  // otherwise it waits for the other tasks (TaskExceptions.h).
  bool Direct = Stack.size() == 1 && !isa<ResumeInst>(At) && !Unwinding.count(At);
  bool Waits = !Direct && any_of(Stack, [&](unsigned I) { return Sites[I].MayThrow; });
  if (Waits)
    Exceptions->startSync(At);
  for (unsigned Idx : llvm::reverse(Stack)) {
    SpawnSite &S = Sites[Idx];
    BasicBlock *Pre = At->getParent();
    BasicBlock *Cont = SplitBlock(Pre, At, static_cast<DominatorTree *>(nullptr),
                                  nullptr, nullptr, "ws.synced");
    Pre->getTerminator()->eraseFromParent();
    BasicBlock *Run = BasicBlock::Create(Ctx, "ws.run", &F, Cont);
    BasicBlock *Stolen = BasicBlock::Create(Ctx, "ws.join", &F, Cont);
    IRBuilder<> B(Pre);
    B.SetCurrentDebugLocation(locationFor(At));
    Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), loadTail(B),
                                               -(int64_t)WS_SLOT_SIZE, "ws.slot");
    B.CreateStore(Slot, TailAddr);
    Value *Taken = emitTake(B, Slot);
    B.CreateCondBr(B.CreateIsNotNull(Taken), Stolen, Run, unlikelyBranch(Ctx));
    B.SetInsertPoint(Run);
    auto BodyUnwind = [&](BasicBlock *CallBlock) -> BasicBlock * {
      if (S.MayThrow && Direct && Unwind) {
        addUnwindPredecessor(Unwind, CallBlock, At);
        return Unwind;
      }
      if (S.MayThrow && !Direct)
        return Exceptions->catchInto(Cont);
      return nullptr;
    };
    auto Caught = [&](IRBuilderBase &T, Value *Captured) {
      if (Direct) {
        Exceptions->rethrow(T, Captured, Unwind, At);
      } else {
        Exceptions->keep(T, Captured);
        T.CreateBr(Cont);
      }
    };
    runChild(S, Slot, nullptr, B, BodyUnwind, Caught);
    B.CreateBr(Cont);
    B.SetInsertPoint(Stolen);
    Value *Threw = B.CreateCall(RT.Join, {Slot}, "ws.exn.stolen");
    if (S.MayThrow) {
      auto *Thrown = BasicBlock::Create(Ctx, "ws.join.threw", &F, Cont);
      auto *Returned = BasicBlock::Create(Ctx, "ws.join.done", &F, Cont);
      B.CreateCondBr(B.CreateIsNotNull(Threw), Thrown, Returned);
      IRBuilder<> T(Thrown);
      T.SetCurrentDebugLocation(locationFor(At));
      if (Direct) {
        Exceptions->rethrow(T, Threw, Unwind, At);
      } else {
        Exceptions->keep(T, Threw);
        T.CreateBr(Cont);
      }
      B.SetInsertPoint(Returned);
    }
    storeStolenResult(S, Slot, B);
    B.CreateBr(Cont);
  }
  if (Waits) {
    BasicBlock *Pre = At->getParent();
    SplitBlock(Pre, At, static_cast<DominatorTree *>(nullptr), nullptr, nullptr,
               "ws.synced");
    Pre->getTerminator()->eraseFromParent();
    IRBuilder<> B(Pre);
    B.SetCurrentDebugLocation(locationFor(At));
    Exceptions->finishSync(B, At, Unwind, Unwinding.lookup(At));
    B.CreateBr(At->getParent());
  }
}

/// Take back every spawn of this invocation, down to the entry tail,
/// before At.  Which spawn a slot holds, its thunk says.
void FunctionLowering::lowerDynamic(Instruction *At) {
  LLVMContext &Ctx = F.getContext();
  bool Waits = any_of(Sites, [](const SpawnSite &S) { return S.MayThrow; });
  if (Waits)
    Exceptions->startSync(At);
  BasicBlock *Pre = At->getParent();
  BasicBlock *Cont = SplitBlock(Pre, At, static_cast<DominatorTree *>(nullptr),
                                nullptr, nullptr, "ws.synced");
  auto *Head = BasicBlock::Create(Ctx, "ws.sync", &F, Cont);
  auto *Pop = BasicBlock::Create(Ctx, "ws.pop", &F, Cont);
  auto *Stolen = BasicBlock::Create(Ctx, "ws.join", &F, Cont);
  auto *Done = BasicBlock::Create(Ctx, "ws.drained", &F, Cont);
  Pre->getTerminator()->setSuccessor(0, Head);
  DebugLoc DL = locationFor(At);

  IRBuilder<> B(Head);
  B.SetCurrentDebugLocation(DL);
  Value *Tail = loadTail(B);
  B.CreateCondBr(B.CreateICmpEQ(Tail, entryTail(B)), Done, Pop);

  B.SetInsertPoint(Pop);
  Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Tail,
                                             -(int64_t)WS_SLOT_SIZE, "ws.slot");
  B.CreateStore(Slot, TailAddr);
  Value *Taken = emitTake(B, Slot);
  BasicBlock *Dispatch = BasicBlock::Create(Ctx, "ws.run", &F, Stolen);
  B.CreateCondBr(B.CreateIsNotNull(Taken), Stolen, Dispatch, unlikelyBranch(Ctx));

  B.SetInsertPoint(Stolen);
  Value *Threw = B.CreateCall(RT.Join, {Slot}, "ws.exn.stolen");
  if (Waits) {
    auto *Thrown = BasicBlock::Create(Ctx, "ws.join.threw", &F, Dispatch);
    B.CreateCondBr(B.CreateIsNotNull(Threw), Thrown, Head);
    IRBuilder<> T(Thrown);
    T.SetCurrentDebugLocation(DL);
    Exceptions->keep(T, Threw);
    T.CreateBr(Head);
  } else {
    B.CreateBr(Head);
  }

  // Which spawn was it?  Compare the thunk in the slot.
  B.SetInsertPoint(Dispatch);
  Value *Thunk = Sites.size() > 1 ? B.CreateLoad(B.getPtrTy(), Slot, "ws.thunk") : nullptr;
  for (unsigned I = 0; I < Sites.size(); ++I) {
    SpawnSite &S = Sites[I];
    BasicBlock *RunSite = BasicBlock::Create(Ctx, "ws.run." + Twine(I), &F, Stolen);
    if (I + 1 < Sites.size()) {
      BasicBlock *Next = BasicBlock::Create(Ctx, "ws.dispatch", &F, Stolen);
      B.CreateCondBr(B.CreateICmpEQ(Thunk, S.Thunk), RunSite, Next);
      B.SetInsertPoint(Next);
    } else {
      B.CreateBr(RunSite);
    }
    IRBuilder<> R(RunSite);
    R.SetCurrentDebugLocation(DL);
    runChild(
        S, Slot, Slot, R,
        [&](BasicBlock *) { return S.MayThrow ? Exceptions->catchInto(Head) : nullptr; },
        [&](IRBuilderBase &T, Value *Captured) {
          Exceptions->keep(T, Captured);
          T.CreateBr(Head);
        });
    R.CreateBr(Head);
  }

  // Mark the loop for ws-sync-unroll: every back edge carries the loop ID
  // (loop-simplify keeps it on the latch it makes of them).  Not for the
  // deques whose fast paths do not publish T (split, private, "runtime"):
  // unrolled, skynet's spawn cost them more (43.3 -> 44.6 instructions).
  if (!RT.Publish) {
    MDNode *LoopID = MDNode::getDistinct(
        Ctx, {nullptr, MDNode::get(Ctx, MDString::get(Ctx, SyncLoopMD))});
    LoopID->replaceOperandWith(0, LoopID);
    for (BasicBlock *Pred : predecessors(Head))
      if (Pred != Pre && isa<BranchInst>(Pred->getTerminator()))
        Pred->getTerminator()->setMetadata(LLVMContext::MD_loop, LoopID);
  }

  B.SetInsertPoint(Done);
  if (SavedStack)
    B.CreateStackRestore(savedStack(B));
  if (Waits)
    Exceptions->finishSync(B, At, unwindOf(At), Unwinding.lookup(At));
  B.CreateBr(Cont);
}

} // namespace wsff
