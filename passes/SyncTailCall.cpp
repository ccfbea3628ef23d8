//===- SyncTailCall.cpp - ws-tre: a sync's self-recursive call as a loop --===//

#include "SyncTailCall.h"

#include "AbiNames.h"

#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Scalar/TailRecursionElimination.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#define DEBUG_TYPE "ws-tre"

using namespace llvm;

namespace wsff {

/// Instructions copied to the fast path: cheap, and safe to run there as
/// they run on the joined path.
static constexpr unsigned MaxCopied = 16;

static bool copyable(const BasicBlock &BB, unsigned &Budget) {
  for (const Instruction &I : BB) {
    if (I.isTerminator())
      break;
    if (isa<PHINode>(I) || I.isDebugOrPseudoInst())
      continue;
    if (I.mayHaveSideEffects() || isa<AllocaInst>(I) || Budget == 0)
      return false;
    --Budget;
  }
  return true;
}

/// The blocks from Call's block to a return, along unconditional branches,
/// if every one of them after the first is copyable.
static SmallVector<BasicBlock *, 4> pathToReturn(CallInst *Call) {
  SmallVector<BasicBlock *, 4> Path{Call->getParent()};
  // After the call in its own block: only copyable instructions.
  for (Instruction *I = Call->getNextNode(); !I->isTerminator(); I = I->getNextNode())
    if (I->mayHaveSideEffects())
      return {};
  unsigned Budget = MaxCopied;
  for (;;) {
    Instruction *Term = Path.back()->getTerminator();
    if (isa<ReturnInst>(Term))
      return Path;
    auto *Br = dyn_cast<BranchInst>(Term);
    if (!Br || Br->isConditional() || Path.size() > 4)
      return {};
    BasicBlock *Next = Br->getSuccessor(0);
    if (is_contained(Path, Next) || !copyable(*Next, Budget))
      return {};
    Path.push_back(Next);
  }
}

/// Copies BB, which ends in a return, into its predecessor Pred, which
/// ends in an unconditional branch to it; BB's phis take Pred's values.
static void copyInto(BasicBlock *BB, BasicBlock *Pred) {
  ValueToValueMapTy VMap;
  Instruction *Br = Pred->getTerminator();
  for (Instruction &I : *BB) {
    if (auto *Phi = dyn_cast<PHINode>(&I)) {
      VMap[Phi] = Phi->getIncomingValueForBlock(Pred);
      continue;
    }
    Instruction *New = I.clone();
    New->setName(I.getName());
    RemapInstruction(New, VMap, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    New->insertBefore(Br);
    VMap[&I] = New;
  }
  BB->removePredecessor(Pred);
  Br->eraseFromParent();
}

PreservedAnalyses SyncTailCallPass::run(Function &F,
                                        FunctionAnalysisManager &FAM) {
  if (!F.hasFnAttribute(CloneAttr))
    return PreservedAnalyses::all();
  SmallVector<CallInst *, 2> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (CI->getCalledFunction() == &F && CI->getMetadata(SyncCallMD))
          Calls.push_back(CI);
  bool Changed = false;
  for (CallInst *CI : Calls) {
    SmallVector<BasicBlock *, 4> Path = pathToReturn(CI);
    if (Path.size() < 2)
      continue;
    // From the end: each block's instructions and return go into its
    // predecessor on the path, so the call's block ends in the return.
    for (unsigned K = Path.size() - 1; K > 0; --K)
      copyInto(Path[K], Path[K - 1]);
    Changed = true;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  FAM.invalidate(F, PreservedAnalyses::none()); // the CFG changed
  TailCallElimPass().run(F, FAM);
  return PreservedAnalyses::none();
}

} // namespace wsff
