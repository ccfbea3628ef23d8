//===- LeafSplit.cpp - ws-leafsplit: a spawning function's leaf test inline --===//

#include "LeafSplit.h"

#include "AbiNames.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#define DEBUG_TYPE "ws-leafsplit"

using namespace llvm;

namespace wsff {
namespace {

/// The most instructions of the leaf test and return copied to callers.
constexpr unsigned MaxCopied = 12;

bool copyable(const Instruction &I) {
  if (I.isDebugOrPseudoInst())
    return true;
  if (I.mayHaveSideEffects() || isa<AllocaInst>(I) || isa<CallBase>(I) ||
      I.isEHPad())
    return false;
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return LI->isSimple();
  return true;
}

/// A walk along one path of F from its entry: the non-phi instructions of
/// each block, phis resolved by the edge taken.
class PathCopy {
public:
  PathCopy(Function &From, Function &To) {
    for (unsigned I = 0; I < From.arg_size(); ++I)
      VMap[From.getArg(I)] = To.getArg(I);
  }
  /// Copies BB (entered from Pred, or the entry) into B; false if some
  /// instruction may not be copied or the budget is spent.
  bool copy(BasicBlock *BB, BasicBlock *Pred, IRBuilderBase &B) {
    for (Instruction &I : *BB) {
      if (auto *Phi = dyn_cast<PHINode>(&I)) {
        if (!Pred)
          return false;
        VMap[Phi] = map(Phi->getIncomingValueForBlock(Pred));
        continue;
      }
      if (I.isTerminator())
        return true;
      if (I.isDebugOrPseudoInst())
        continue;
      if (!copyable(I) || ++Copied > MaxCopied)
        return false;
      Instruction *New = I.clone();
      New->setDebugLoc(DebugLoc());
      RemapInstruction(New, VMap, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
      B.Insert(New, I.getName());
      VMap[&I] = New;
    }
    return true;
  }
  Value *map(Value *V) {
    Value *M = VMap.lookup(V);
    return M ? M : V;
  }

private:
  ValueToValueMapTy VMap;
  unsigned Copied = 0;
};

/// Does BB lead to a return along unconditional branches, through
/// instructions that may be copied?
bool isReturnPath(BasicBlock *BB) {
  unsigned Budget = MaxCopied;
  for (unsigned Steps = 0; Steps < 4; ++Steps) {
    for (Instruction &I : *BB) {
      if (isa<PHINode>(I) || I.isTerminator() || I.isDebugOrPseudoInst())
        continue;
      if (!copyable(I) || Budget-- == 0)
        return false;
    }
    Instruction *Term = BB->getTerminator();
    if (isa<ReturnInst>(Term))
      return true;
    auto *Br = dyn_cast<BranchInst>(Term);
    if (!Br || Br->isConditional())
      return false;
    BB = Br->getSuccessor(0);
  }
  return false;
}

/// Copies the return path from BB (entered from Pred) into B.
ReturnInst *copyReturnPath(BasicBlock *BB, BasicBlock *Pred, PathCopy &PC,
                           IRBuilderBase &B) {
  for (unsigned Steps = 0; Steps < 4; ++Steps) {
    if (!PC.copy(BB, Pred, B))
      return nullptr;
    Instruction *Term = BB->getTerminator();
    if (auto *RI = dyn_cast<ReturnInst>(Term))
      return RI->getReturnValue() ? B.CreateRet(PC.map(RI->getReturnValue()))
                                  : B.CreateRetVoid();
    auto *Br = dyn_cast<BranchInst>(Term);
    if (!Br || Br->isConditional())
      return nullptr;
    Pred = BB;
    BB = Br->getSuccessor(0);
  }
  return nullptr;
}

/// Splits F into an entry that runs its leaf test and a body, if F starts
/// with one.
bool splitLeaf(Function &F) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = F.getContext();
  Function *Entry = Function::Create(F.getFunctionType(), GlobalValue::InternalLinkage,
                                     F.getAddressSpace(), F.getName() + LeafEntrySuffix, &M);
  Entry->copyAttributesFrom(&F);
  Entry->setLinkage(GlobalValue::InternalLinkage);
  PathCopy PC(F, *Entry);
  BasicBlock *Test = BasicBlock::Create(Ctx, "ws.leaf.test", Entry);
  IRBuilder<> B(Test);
  // Along unconditional branches to the first conditional one.
  BasicBlock *BB = &F.getEntryBlock(), *Pred = nullptr;
  BranchInst *Cond = nullptr;
  for (unsigned Steps = 0; Steps < 4 && !Cond; ++Steps) {
    if (!PC.copy(BB, Pred, B))
      break;
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br)
      break;
    if (Br->isConditional())
      Cond = Br;
    else {
      Pred = BB;
      BB = Br->getSuccessor(0);
    }
  }
  ReturnInst *Leaf = nullptr;
  unsigned LeafSide = 0;
  if (Cond) {
    while (LeafSide < 2 && !isReturnPath(Cond->getSuccessor(LeafSide)))
      ++LeafSide;
    if (LeafSide < 2) {
      IRBuilder<> RB(BasicBlock::Create(Ctx, "ws.leaf", Entry));
      Leaf = copyReturnPath(Cond->getSuccessor(LeafSide), BB, PC, RB);
    }
  }
  if (!Leaf) {
    Entry->eraseFromParent();
    return false;
  }
  // The body: F's own, called when the test fails.
  BasicBlock *Call = BasicBlock::Create(Ctx, "ws.body", Entry);
  IRBuilder<> CB(Call);
  SmallVector<Value *, 8> Args;
  for (Argument &A : Entry->args())
    Args.push_back(&A);
  CallInst *Body = CB.CreateCall(&F, Args);
  Body->setCallingConv(F.getCallingConv());
  Body->setTailCall();
  if (F.getReturnType()->isVoidTy())
    CB.CreateRetVoid();
  else
    CB.CreateRet(Body);
  Value *C = PC.map(Cond->getCondition());
  BasicBlock *LeafBB = Leaf->getParent();
  B.CreateCondBr(C, LeafSide == 0 ? LeafBB : Call, LeafSide == 0 ? Call : LeafBB);

  // Everyone but the entry itself calls the entry now; F becomes the body.
  F.replaceUsesWithIf(Entry, [&](Use &U) {
    auto *I = dyn_cast<Instruction>(U.getUser());
    return !I || I->getFunction() != Entry;
  });
  Entry->takeName(&F);
  F.setName(Entry->getName() + ".body");
  F.removeFnAttr(CloneAttr);
  Entry->removeFnAttr(Attribute::NoInline);
  Entry->addFnAttr(Attribute::AlwaysInline);
  return true;
}

} // namespace

PreservedAnalyses LeafSplitPass::run(Module &M, ModuleAnalysisManager &MAM) {
  SmallVector<Function *, 8> Clones;
  for (Function &F : M)
    if (F.hasFnAttribute(CloneAttr) && !F.isDeclaration() &&
        !F.hasFnAttribute(Attribute::OptimizeNone) &&
        !F.hasFnAttribute(Attribute::NoInline))
      Clones.push_back(&F);
  bool Changed = false;
  for (Function *F : Clones)
    Changed |= splitLeaf(*F);
  if (!Changed)
    return PreservedAnalyses::all();
  AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false).run(M, MAM);
  return PreservedAnalyses::none();
}

} // namespace wsff
