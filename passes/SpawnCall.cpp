//===- SpawnCall.cpp - The call a ws_spawn makes ---------------------------===//

#include "SpawnCall.h"

#include "AbiNames.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/MemoryBuiltins.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace wsff {

bool isCallTo(const Instruction &I, StringRef Name) {
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *F = CB->getCalledFunction())
      return F->getName() == Name;
  return false;
}

static bool isWsBuiltin(const Instruction &I) {
  return isCallTo(I, SpawnBeginName) || isCallTo(I, SpawnEndName) ||
         isCallTo(I, SyncName);
}

/// Where control goes when nothing throws: an exception while evaluating
/// the arguments unwinds through the parent's own handlers.
static SmallVector<BasicBlock *, 2> normalSuccessors(Instruction &Term) {
  if (auto *II = dyn_cast<InvokeInst>(&Term))
    return {II->getNormalDest()};
  SmallVector<BasicBlock *, 2> Succs;
  for (BasicBlock *Succ : successors(Term.getParent()))
    Succs.push_back(Succ);
  return Succs;
}

/// Walks forward from the begin marker to its end marker, calling Visit on
/// every instruction on the way.  The macro makes the region straight-line
/// code, possibly with the branches of a `?:` or `&&` in the arguments or
/// of a sanitizer's checks.  The arguments may spawn and sync themselves (a
/// statement expression): that is the parent's code, and a spawn there is
/// walked over, up to its own end marker.
static CallInst *walkRegion(CallInst &Begin,
                            function_ref<void(Instruction &)> Visit,
                            unsigned Depth = 0) {
  if (Depth > 64)
    return nullptr;
  CallInst *Found = nullptr;
  SmallVector<BasicBlock::iterator, 4> Work{std::next(Begin.getIterator())};
  SmallPtrSet<BasicBlock *, 8> Seen{Begin.getParent()};
  unsigned Steps = 0;
  while (!Work.empty()) {
    BasicBlock::iterator It = Work.pop_back_val();
    BasicBlock *BB = It->getParent();
    for (; It != BB->end(); ++It) {
      if (++Steps > 100000)
        return nullptr;
      if (isCallTo(*It, SpawnEndName)) {
        auto *E = cast<CallInst>(&*It);
        if (Found && Found != E)
          return nullptr;
        Found = E;
        break;
      }
      if (isCallTo(*It, SpawnBeginName)) {
        CallInst *Inner = walkRegion(cast<CallInst>(*It), [](Instruction &) {}, Depth + 1);
        if (!Inner)
          return nullptr;
        if (Inner->getParent() != BB) {
          if (Inner->getParent() == Begin.getParent())
            return nullptr; // a cycle through the spawn
          Seen.insert(Inner->getParent());
          Work.push_back(std::next(Inner->getIterator()));
          break;
        }
        It = Inner->getIterator();
        continue;
      }
      if (isCallTo(*It, SyncName))
        continue;
      if (isa<ReturnInst>(*It) || isa<ResumeInst>(*It))
        return nullptr;
      Visit(*It);
      if (It->isTerminator())
        for (BasicBlock *Succ : normalSuccessors(*It)) {
          if (Succ == Begin.getParent())
            return nullptr; // a cycle through the spawn
          if (Seen.insert(Succ).second)
            Work.push_back(Succ->begin());
        }
    }
  }
  return Found;
}

CallInst *spawnEndOf(CallInst &Begin) {
  return walkRegion(Begin, [](Instruction &) {});
}

/// Is I the parent's, to be evaluated before the spawn: free of side
/// effects, or a sanitizer's check (its handler call is tagged nosanitize),
/// and not using what the task computes?
static bool isParentCheck(const Instruction &I,
                          const SmallPtrSetImpl<const Value *> &Task) {
  for (const Value *Op : I.operands())
    if (Task.count(Op))
      return false;
  return isa<DbgInfoIntrinsic>(I) || !I.mayHaveSideEffects() ||
         I.hasMetadata(LLVMContext::MD_nosanitize);
}

/// UBSan checks the frontend's own temporaries too (the size and alignment
/// of a result's sret slot, after the call): facts known at compile time.
/// Folds them, and the branches they decide, in the blocks from the
/// spawned call to Into, so that only the checks of the parent's values
/// remain between the call and the end marker.
static void foldStaticChecks(CallBase &Call, BasicBlock &Into) {
  const DataLayout &DL = Call.getModule()->getDataLayout();
  SmallVector<BasicBlock *, 8> Blocks{Call.getParent()};
  SmallPtrSet<BasicBlock *, 8> Seen{Call.getParent(), &Into};
  for (unsigned I = 0; I < Blocks.size(); ++I)
    if (isa<BranchInst>(Blocks[I]->getTerminator()))
      for (BasicBlock *Succ : successors(Blocks[I]))
        if (Seen.insert(Succ).second)
          Blocks.push_back(Succ);
  Blocks.push_back(&Into);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : Blocks) {
      for (Instruction &I : make_early_inc_range(*BB)) {
        if (!I.hasMetadata(LLVMContext::MD_nosanitize) || I.isTerminator())
          continue;
        Value *V = nullptr;
        auto *II = dyn_cast<IntrinsicInst>(&I);
        if (II && II->getIntrinsicID() == Intrinsic::objectsize) {
          if (isa<AllocaInst>(getUnderlyingObject(II->getArgOperand(0))))
            V = lowerObjectSizeCall(II, DL, nullptr, /*MustSucceed=*/false);
        } else {
          V = simplifyInstruction(&I, SimplifyQuery(DL));
        }
        if (V && isa<Constant>(V)) {
          I.replaceAllUsesWith(V);
          I.eraseFromParent();
          Changed = true;
        }
      }
      auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
      if (Br && Br->isConditional() && isa<Constant>(Br->getCondition()) &&
          Br->hasMetadata(LLVMContext::MD_nosanitize))
        Changed |= ConstantFoldTerminator(BB, /*DeleteDeadConditions=*/true);
    }
  }
  for (BasicBlock *BB : Blocks)
    if (BB != Call.getParent() && BB != &Into && pred_empty(BB))
      DeleteDeadBlock(BB);
}

/// Moves the spawned call, and what must stay after it in its block, past
/// the parent's checks that follow it to the start of Into, which every
/// path from the call reaches through checks only.  False if the code
/// between is not that shape.
static bool sinkPastChecks(CallBase &Call, BasicBlock &Into) {
  BasicBlock *From = Call.getParent();
  SmallVector<Instruction *, 8> Moving{&Call};
  SmallPtrSet<const Value *, 8> Task{&Call};
  for (Instruction *I = Call.getNextNode(); I != From->getTerminator();
       I = I->getNextNode())
    if (!isParentCheck(*I, Task)) {
      Moving.push_back(I);
      Task.insert(I);
    }
  // The checks' blocks: everything reachable from the call's block before
  // Into.  They, and Into, must be entered from the call's block only.
  SmallVector<BasicBlock *, 4> Work{From};
  SmallPtrSet<BasicBlock *, 8> Seen{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    Instruction *Term = BB->getTerminator();
    if (!isa<BranchInst>(Term) && !isa<UnreachableInst>(Term))
      return false;
    for (BasicBlock *Succ : successors(BB)) {
      if (Succ == &Into || !Seen.insert(Succ).second)
        continue;
      for (Instruction &I : *Succ)
        if (!I.isTerminator() && !isParentCheck(I, Task))
          return false;
      Work.push_back(Succ);
    }
  }
  for (BasicBlock *BB : Seen)
    if (BB != From && any_of(predecessors(BB), [&](BasicBlock *P) { return !Seen.count(P); }))
      return false;
  if (any_of(predecessors(&Into), [&](BasicBlock *P) { return !Seen.count(P); }))
    return false;
  if (isa<PHINode>(Into.front()))
    return false;
  Instruction *At = &*Into.getFirstInsertionPt();
  for (Instruction *I : Moving)
    I->moveBefore(At);
  return true;
}

/// An invoke in a spawn made a call, marked with the landing pad it
/// unwound to: where the spawn's scope is left by a sync (the end of a
/// local's life), the sync unwinds there, as the invoke would have.
static CallInst *callOf(InvokeInst *II) {
  LandingPadInst *LP = II->getLandingPadInst();
  MDNode *Pair = LP->getMetadata(PadMD);
  if (!Pair) {
    Pair = MDNode::getDistinct(II->getContext(), {});
    LP->setMetadata(PadMD, Pair);
  }
  CallInst *Call = changeToCall(II);
  Call->setMetadata(WasInvokeMD, Pair);
  return Call;
}

BasicBlock *formerUnwindDest(const Instruction &I) {
  MDNode *Pair = I.getMetadata(WasInvokeMD);
  if (!Pair)
    return nullptr;
  for (BasicBlock &BB : *const_cast<Function *>(I.getFunction()))
    if (BB.isLandingPad() && BB.getLandingPadInst()->getMetadata(PadMD) == Pair)
      return &BB;
  return nullptr;
}

/// A spawned invoke is a call: an exception of a task comes out at its
/// sync, not at the spawn.
static CallBase *asCall(CallBase &CB) {
  auto *II = dyn_cast<InvokeInst>(&CB);
  if (!II)
    return &CB;
  BasicBlock *Normal = II->getNormalDest();
  CallInst *Call = callOf(II);
  MergeBlockIntoPredecessor(Normal);
  return Call;
}

/// The earlier marker: the last call of the function it names, or the
/// last indirect call when it names a pointer.
static bool isNamedCall(const CallBase &CB, const Value *Target) {
  if (isa<IntrinsicInst>(CB) || isWsBuiltin(CB))
    return false;
  if (const auto *Fn = dyn_cast<Function>(Target))
    return CB.getCalledOperand()->stripPointerCasts() == Fn;
  return CB.getCalledFunction() == nullptr && !CB.isInlineAsm();
}

CallBase *spawnedCallOf(CallInst &Begin, CallInst &End) {
  if (Begin.arg_size() != 2)
    return nullptr;
  Value *Target = Begin.getArgOperand(1);
  LLVMContext &Ctx = Begin.getContext();
  if (!Begin.use_empty() && Target->getType() == Begin.getType()) {
    CallBase *Through = nullptr;
    for (User *U : Begin.users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == &Begin) {
        if (Through)
          return nullptr;
        Through = CB;
      }
    if (!Through)
      return nullptr;
    Through->setMetadata(SpawnedCallMD, MDNode::get(Ctx, {}));
    Begin.replaceAllUsesWith(Target);
  }

  CallBase *Marked = nullptr;
  bool Twice = false;
  walkRegion(Begin, [&](Instruction &I) {
    // Only a call can be the spawned call: the mark on anything else is
    // not the pass's (a module that came with it), and is ignored.
    auto *CB = dyn_cast<CallBase>(&I);
    if (CB && I.getMetadata(SpawnedCallMD)) {
      Twice |= Marked != nullptr;
      Marked = CB;
    }
  });
  if (Twice)
    return nullptr;
  if (Marked) {
    CallBase *Call = asCall(*Marked);
    Call->setMetadata(SpawnedCallMD, MDNode::get(Ctx, {}));
    BasicBlock *Into = End.getParent();
    if (Call->getParent() != Into)
      foldStaticChecks(*Call, *Into);
    while (Call->getParent() != Into) {
      // Result handling behind invokes (a C++ assignment operator): calls.
      BasicBlock *Pred = Into->getSinglePredecessor();
      auto *II = Pred ? dyn_cast<InvokeInst>(Pred->getTerminator()) : nullptr;
      if (II && II->getNormalDest() == Into) {
        callOf(II);
        if (!MergeBlockIntoPredecessor(Into))
          return nullptr;
        Into = End.getParent();
        continue;
      }
      if (!sinkPastChecks(*Call, *Into))
        return nullptr;
    }
    return Call;
  }

  // The earlier marker.  Result handling after the call may sit behind
  // invokes (C++ cleanups): turn them into calls and merge.
  const Value *Named = Target->stripPointerCasts();
  for (;;) {
    BasicBlock *BB = End.getParent();
    for (auto It = End.getReverseIterator(), E = BB->rend(); It != E; ++It) {
      if (&*It == &Begin)
        break;
      if (auto *CB = dyn_cast<CallBase>(&*It))
        if (isNamedCall(*CB, Named))
          return CB;
    }
    BasicBlock *Pred = BB->getSinglePredecessor();
    auto *II = Pred ? dyn_cast<InvokeInst>(Pred->getTerminator()) : nullptr;
    if (!II || II->getNormalDest() != BB || Begin.getParent() == BB)
      return nullptr;
    callOf(II);
    if (!MergeBlockIntoPredecessor(BB))
      return nullptr;
  }
}

} // namespace wsff
