//===- LeafSpawn.cpp - A spawn's leaf test before its push ----------------===//
//
// See LeafSpawn.h.  The placeholders are replaced in LeafSplit.cpp.
//
//===----------------------------------------------------------------------===//
#include "LeafSpawn.h"

#include "AbiNames.h"
#include "SpawnCall.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wsff {
namespace {

/// A value the placeholder can return and the leaf's value can be.
bool isPlainType(Type *T) {
  return T->isIntegerTy() || T->isPointerTy() || T->isFloatingPointTy();
}

/// May a variable's address be taken?  (Loads, stores to it, and
/// markers do not take it.)
bool isPlainVariable(const Value *V) {
  const auto *A = dyn_cast<AllocaInst>(V);
  if (!A)
    return false;
  for (const User *U : A->users()) {
    if (isa<LoadInst>(U) || isa<DbgInfoIntrinsic>(U))
      continue;
    if (const auto *SI = dyn_cast<StoreInst>(U); SI && SI->getValueOperand() != A)
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      continue;
    return false;
  }
  return true;
}

/// Is address P (in the spawn, after its call) the one Begin (a value
/// before the spawn, in the same block) was given: the same value, or
/// two plain loads of a variable whose address is not taken, with no
/// store to it between them?
bool sameAddress(Value *P, Value *Begin) {
  if (P == Begin)
    return true;
  auto *Later = dyn_cast<LoadInst>(P), *Earlier = dyn_cast<LoadInst>(Begin);
  if (!Later || !Earlier || !Later->isSimple() || !Earlier->isSimple() ||
      Later->getPointerOperand() != Earlier->getPointerOperand() ||
      Later->getParent() != Earlier->getParent() ||
      !isPlainVariable(Earlier->getPointerOperand()) || !Earlier->comesBefore(Later))
    return false;
  for (Instruction *I = Earlier->getNextNode(); I != Later; I = I->getNextNode())
    if (auto *SI = dyn_cast<StoreInst>(I);
        SI && SI->getPointerOperand() == Earlier->getPointerOperand())
      return false;
  return true;
}

/// A spawn of the plain shape, all in one block:
///   begin(res, fn); arguments (plain values); call; [loads];
///   [store call -> res]; end
struct Shape {
  CallInst *Begin = nullptr, *Call = nullptr, *End = nullptr;
  StoreInst *Store = nullptr;
  Function *Clone = nullptr;
};

std::optional<Shape> shapeOf(CallInst *Begin, const CloneMap &Clones) {
  if (Begin->arg_size() != 2)
    return std::nullopt;
  auto *G = dyn_cast<Function>(Begin->getArgOperand(1)->stripPointerCasts());
  Shape S;
  S.Begin = Begin;
  S.Clone = G ? Clones.lookup(G) : nullptr;
  if (!S.Clone || G->isVarArg())
    return std::nullopt;
  for (Instruction *I = Begin->getNextNode(); I; I = I->getNextNode()) {
    if (isa<DbgInfoIntrinsic>(I))
      continue;
    if (!S.Call) {
      auto *CI = dyn_cast<CallInst>(I);
      if (CI && (CI->getCalledOperand() == Begin ||
                 CI->getCalledOperand()->stripPointerCasts() == G))
        S.Call = CI;
      else if (!isPlainValue(*I))
        return std::nullopt;
      continue;
    }
    auto *SI = dyn_cast<StoreInst>(I);
    if (SI && !S.Store && SI->isSimple() && SI->getValueOperand() == S.Call &&
        sameAddress(SI->getPointerOperand(), Begin->getArgOperand(0))) {
      S.Store = SI;
      continue;
    }
    // Before optimization the macro's result pointer is read again from
    // its local variable.
    if (auto *LI = dyn_cast<LoadInst>(I); LI && !S.Store && LI->isSimple())
      continue;
    if (isCallTo(*I, SpawnEndName))
      S.End = cast<CallInst>(I);
    break;
  }
  if (!S.End)
    return std::nullopt;
  CallInst *C = S.Call;
  if (C->getFunctionType() != G->getFunctionType() || C->hasOperandBundles() ||
      C->isMustTailCall() || C->getCallingConv() != G->getCallingConv())
    return std::nullopt;
  // Arguments that are values, not memory handed over.
  for (unsigned I = 0; I < C->arg_size(); ++I)
    if (C->isByValArgument(I) || C->paramHasAttr(I, Attribute::StructRet) ||
        C->paramHasAttr(I, Attribute::InAlloca) ||
        C->paramHasAttr(I, Attribute::Preallocated) ||
        G->getArg(I)->hasByValAttr() || G->getArg(I)->hasStructRetAttr() ||
        G->getArg(I)->hasInAllocaAttr() || G->getArg(I)->hasPreallocatedAttr())
      return std::nullopt;
  // The begin marker's value is the callee, and nothing else; the call's
  // value is the store's, and nothing else's.
  for (Use &U : Begin->uses())
    if (U.getUser() != C || !C->isCallee(&U))
      return std::nullopt;
  for (User *U : C->users())
    if (U != S.Store && !isa<DbgInfoIntrinsic>(U))
      return std::nullopt;
  if (S.Store && !isPlainType(C->getType()))
    return std::nullopt;
  return S;
}

/// The placeholder named Name of type FT: null if M has something else by
/// that name.
FunctionCallee placeholder(Module &M, StringRef Name, FunctionType *FT) {
  if (GlobalValue *GV = M.getNamedValue(Name)) {
    auto *Fn = dyn_cast<Function>(GV);
    if (!Fn || !Fn->isDeclaration() || Fn->getFunctionType() != FT)
      return FunctionCallee();
  }
  FunctionCallee C = M.getOrInsertFunction(Name, FT);
  auto *Fn = cast<Function>(C.getCallee());
  Fn->setDoesNotThrow();
  Fn->addFnAttr(Attribute::WillReturn);
  return C;
}

std::string valueName(Type *T) {
  std::string Name = LeafValuePrefix.str();
  raw_string_ostream OS(Name);
  T->print(OS);
  return Name;
}

/// Before:  BB: ... begin; args; call; [store]; end; rest
/// After:   BB: ... args; %leaf = __ws_leaf_test(clone, args); br %leaf
///          ws.leaf: [store __ws_leaf_value(clone, args)]; [count]; br ws.spawned
///          ws.spawn: begin; call; [store]; end; br ws.spawned
///          ws.spawned: rest
bool addTest(Shape &S, const Runtime &RT) {
  Module &M = *S.Begin->getModule();
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  FunctionCallee Test =
      placeholder(M, LeafTestName, FunctionType::get(Type::getInt1Ty(Ctx), {Ptr}, true));
  FunctionCallee Value;
  if (S.Store)
    Value = placeholder(M, valueName(S.Call->getType()),
                        FunctionType::get(S.Call->getType(), {Ptr}, true));
  if (!Test || (S.Store && !Value))
    return false;
  Function &F = *S.Begin->getFunction();
  // The arguments are the parent's values, computed before the spawn.
  S.Begin->moveBefore(S.Call);
  BasicBlock *BB = S.Begin->getParent();
  BasicBlock *Spawn = BB->splitBasicBlock(S.Begin, "ws.spawn");
  BasicBlock *After = Spawn->splitBasicBlock(S.End->getNextNode(), "ws.spawned");
  BasicBlock *Leaf = BasicBlock::Create(Ctx, "ws.leaf", &F, Spawn);

  SmallVector<llvm::Value *, 8> Args{S.Clone};
  append_range(Args, S.Call->args());
  BB->getTerminator()->eraseFromParent();
  IRBuilder<> B(BB);
  B.SetCurrentDebugLocation(S.Begin->getDebugLoc());
  CallInst *IsLeaf = B.CreateCall(Test, Args, "ws.isleaf");
  B.CreateCondBr(IsLeaf, Leaf, Spawn);

  B.SetInsertPoint(Leaf);
  if (S.Store) {
    CallInst *V = B.CreateCall(Value, Args, "ws.leaf.value");
    auto *St = cast<StoreInst>(S.Store->clone());
    St->setOperand(0, V);
    St->setOperand(1, S.Begin->getArgOperand(0)); // the same address
    B.Insert(St);
  }
  countSpawn(B, RT); // -fws-stats counts the spawn all the same
  B.CreateBr(After);
  return true;
}

} // namespace

bool isPlainValue(const Instruction &I) {
  if (isa<CallBase>(I) || isa<PHINode>(I) || isa<AllocaInst>(I) || I.isEHPad() ||
      I.mayHaveSideEffects())
    return false;
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return LI->isSimple();
  return !I.mayReadOrWriteMemory();
}

bool addLeafSpawnTests(Function &F, const CloneMap &Clones, const Runtime &RT) {
  SmallVector<Shape, 4> Shapes;
  for (Instruction &I : instructions(F))
    if (auto *Begin = dyn_cast<CallInst>(&I); Begin && isCallTo(I, SpawnBeginName))
      if (std::optional<Shape> S = shapeOf(Begin, Clones))
        Shapes.push_back(*S);
  bool Changed = false;
  for (Shape &S : Shapes)
    Changed |= addTest(S, RT);
  return Changed;
}

bool dropLeafSpawnTests(Module &M) {
  bool Changed = false;
  for (Function &Fn : make_early_inc_range(M)) {
    StringRef Name = Fn.getName();
    bool IsTest = Name == LeafTestName;
    if (!Fn.isDeclaration() || (!IsTest && !Name.starts_with(LeafValuePrefix)))
      continue;
    for (User *U : make_early_inc_range(Fn.users()))
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledOperand() == &Fn) {
        CB->replaceAllUsesWith(IsTest ? static_cast<llvm::Value *>(ConstantInt::getFalse(M.getContext()))
                                      : PoisonValue::get(CB->getType()));
        CB->eraseFromParent();
        Changed = true;
      }
    if (Fn.use_empty())
      Fn.eraseFromParent();
  }
  return Changed;
}

} // namespace wsff
