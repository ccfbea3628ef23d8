//===- LeafSplit.cpp - ws-leafsplit: a spawning function's leaf test inline --===//

#include "LeafSplit.h"

#include "AbiNames.h"
#include "LeafSpawn.h"

#include "llvm/ADT/SmallPtrSet.h"
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
  return I.isDebugOrPseudoInst() || isPlainValue(I);
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
        if (!Pred || Left.count(Phi->getIncomingValueForBlock(Pred)))
          return false;
        VMap[Phi] = map(Phi->getIncomingValueForBlock(Pred));
        continue;
      }
      if (I.isTerminator())
        return true;
      if (I.isDebugOrPseudoInst())
        continue;
      // The frame's variables (skynet's array of results) are the body's:
      // a test that uses none leaves them behind.
      if (isa<AllocaInst>(I) && BB->isEntryBlock()) {
        Left.insert(&I);
        continue;
      }
      if (!copyable(I) || ++Copied > MaxCopied ||
          any_of(I.operands(), [&](const Use &U) { return Left.count(U.get()); }))
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
  /// A variable of the entry block the copy left behind.
  bool left(const Value *V) const { return Left.count(V); }

private:
  ValueToValueMapTy VMap;
  SmallPtrSet<const Value *, 4> Left;
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
    if (auto *RI = dyn_cast<ReturnInst>(Term)) {
      if (!RI->getReturnValue())
        return B.CreateRetVoid();
      if (PC.left(RI->getReturnValue()))
        return nullptr;
      return B.CreateRet(PC.map(RI->getReturnValue()));
    }
    auto *Br = dyn_cast<BranchInst>(Term);
    if (!Br || Br->isConditional())
      return nullptr;
    Pred = BB;
    BB = Br->getSuccessor(0);
  }
  return nullptr;
}

/// Copies F's leaf test into B: from F's entry along unconditional branches
/// to the first conditional one, one side of which returns at once.  The
/// branch and the leaf's side, or null.
std::pair<BranchInst *, unsigned> copyLeafTest(Function &F, PathCopy &PC,
                                               IRBuilderBase &B) {
  BasicBlock *BB = &F.getEntryBlock(), *Pred = nullptr;
  for (unsigned Steps = 0; Steps < 4; ++Steps) {
    if (!PC.copy(BB, Pred, B))
      return {nullptr, 0};
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br)
      return {nullptr, 0};
    if (Br->isConditional()) {
      for (unsigned Side = 0; Side < 2; ++Side)
        if (isReturnPath(Br->getSuccessor(Side)))
          return {Br, Side};
      return {nullptr, 0};
    }
    Pred = BB;
    BB = Br->getSuccessor(0);
  }
  return {nullptr, 0};
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
  auto [Cond, LeafSide] = copyLeafTest(F, PC, B);
  ReturnInst *Leaf = nullptr;
  if (Cond) {
    IRBuilder<> RB(BasicBlock::Create(Ctx, "ws.leaf", Entry));
    Leaf = copyReturnPath(Cond->getSuccessor(LeafSide), Cond->getParent(), PC, RB);
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

/// F's leaf test (Value false: a function of F's arguments that is true
/// for a leaf) or its leaf's value (Value true: F's type), always inline;
/// null if F has none, or if it reads the hidden tail (the placeholders
/// of LeafSpawn.h do not pass it).
Function *leafPart(Function &F, bool Value) {
  LLVMContext &Ctx = F.getContext();
  FunctionType *FT =
      Value ? F.getFunctionType()
            : FunctionType::get(Type::getInt1Ty(Ctx), F.getFunctionType()->params(), false);
  Function *Part = Function::Create(FT, GlobalValue::InternalLinkage, F.getAddressSpace(),
                                    F.getName() + (Value ? LeafValueSuffix : LeafTestSuffix),
                                    F.getParent());
  Part->addFnAttr(Attribute::AlwaysInline);
  Part->setDoesNotThrow();
  Part->addFnAttr(Attribute::WillReturn);
  PathCopy PC(F, *Part);
  IRBuilder<> B(BasicBlock::Create(Ctx, "ws.leaf.test", Part));
  auto [Cond, Side] = copyLeafTest(F, PC, B);
  bool OK = Cond != nullptr;
  if (OK && Value) {
    OK = copyReturnPath(Cond->getSuccessor(Side), Cond->getParent(), PC, B) != nullptr;
  } else if (OK) {
    llvm::Value *C = PC.map(Cond->getCondition());
    B.CreateRet(Side == 0 ? C : B.CreateNot(C));
  }
  if (OK && F.hasFnAttribute(CloneAttr) && !Part->getArg(0)->use_empty())
    OK = false;
  if (!OK) {
    Part->eraseFromParent();
    return nullptr;
  }
  return Part;
}

/// The placeholders of spawns of F (LeafSpawn.h) become calls of F's leaf
/// test and value; "not a leaf" where F has none.
bool resolveLeafSpawns(Function &F) {
  SmallVector<CallBase *, 8> Tests, Values;
  for (User *U : F.users())
    if (auto *CB = dyn_cast<CallBase>(U); CB && CB->arg_size() && CB->getArgOperand(0) == &F)
      if (Function *P = CB->getCalledFunction(); P && P->isDeclaration()) {
        if (P->getName() == LeafTestName)
          Tests.push_back(CB);
        else if (P->getName().starts_with(LeafValuePrefix))
          Values.push_back(CB);
      }
  if (Tests.empty() && Values.empty())
    return false;
  Function *Test = Tests.empty() ? nullptr : leafPart(F, false);
  Function *Val = Values.empty() || !Test ? nullptr : leafPart(F, true);
  auto Replace = [&](CallBase *CB, Function *Part, llvm::Value *Otherwise) {
    bool Fits = Part && CB->arg_size() == Part->arg_size() &&
                CB->getType() == Part->getReturnType();
    for (unsigned I = 1; Fits && I < CB->arg_size(); ++I)
      Fits = CB->getArgOperand(I)->getType() == Part->getArg(I)->getType();
    llvm::Value *New = Otherwise;
    if (Fits) {
      SmallVector<llvm::Value *, 8> Args{PoisonValue::get(Part->getArg(0)->getType())};
      append_range(Args, drop_begin(CB->args()));
      CallInst *Call = CallInst::Create(Part, Args, CB->getName(), CB->getIterator());
      Call->setDebugLoc(CB->getDebugLoc());
      New = Call;
    }
    CB->replaceAllUsesWith(New);
    CB->eraseFromParent();
  };
  for (CallBase *CB : Tests)
    Replace(CB, Test, ConstantInt::getFalse(F.getContext()));
  for (CallBase *CB : Values)
    Replace(CB, Val, PoisonValue::get(CB->getType()));
  for (Function *Part : {Test, Val})
    if (Part && Part->use_empty())
      Part->eraseFromParent();
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
  // The spawns' leaf tests first: splitting a clone sends its uses to its
  // entry.  Those of other functions' spawns say "not a leaf".
  for (Function *F : Clones)
    Changed |= resolveLeafSpawns(*F);
  Changed |= dropLeafSpawnTests(M);
  for (Function *F : Clones)
    Changed |= splitLeaf(*F);
  if (!Changed)
    return PreservedAnalyses::all();
  AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false).run(M, MAM);
  return PreservedAnalyses::none();
}

} // namespace wsff
