//===- RandomIR.cpp - Random types, values and places for the mutators ----===//

#include "RandomIR.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace wsfuzz {

unsigned below(Rng &R, unsigned N) {
  return std::uniform_int_distribution<unsigned>(0, N - 1)(R);
}

bool chance(Rng &R, unsigned Percent) { return below(R, 100) < Percent; }

static Type *randomScalarType(LLVMContext &Ctx, Rng &R) {
  switch (below(R, 8)) {
  case 0:
    return Type::getInt1Ty(Ctx);
  case 1:
    return Type::getInt8Ty(Ctx);
  case 2:
    return Type::getInt16Ty(Ctx);
  case 3:
    return Type::getInt32Ty(Ctx);
  case 4:
    return Type::getInt64Ty(Ctx);
  case 5:
    return Type::getFloatTy(Ctx);
  case 6:
    return Type::getDoubleTy(Ctx);
  default:
    return PointerType::getUnqual(Ctx);
  }
}

Type *randomType(LLVMContext &Ctx, Rng &R) {
  switch (below(R, 10)) {
  case 0: { // llvm-stress loves vectors
    Type *Elt = randomScalarType(Ctx, R);
    return FixedVectorType::get(Elt, 1u << below(R, 4));
  }
  case 1: {
    SmallVector<Type *, 3> Fields;
    for (unsigned I = 0, N = 1 + below(R, 3); I < N; ++I)
      Fields.push_back(randomScalarType(Ctx, R));
    return StructType::get(Ctx, Fields);
  }
  case 2:
    return ArrayType::get(randomScalarType(Ctx, R), 1 + below(R, 4));
  default:
    return randomScalarType(Ctx, R);
  }
}

Type *randomReturnType(LLVMContext &Ctx, Rng &R) {
  return chance(R, 30) ? Type::getVoidTy(Ctx) : randomType(Ctx, R);
}

Constant *randomConstant(Type *T, Rng &R) {
  switch (below(R, 6)) {
  case 0:
    return PoisonValue::get(T);
  case 1:
    return UndefValue::get(T);
  case 2:
    if (T->isIntOrIntVectorTy() || T->isFPOrFPVectorTy())
      return Constant::getAllOnesValue(T);
    return Constant::getNullValue(T);
  case 3:
    if (T->isIntOrIntVectorTy())
      return ConstantInt::get(T, below(R, 1000));
    if (T->isFPOrFPVectorTy())
      return ConstantFP::get(T, below(R, 1000) / 8.0);
    return Constant::getNullValue(T);
  default:
    return Constant::getNullValue(T);
  }
}

Instruction *randomInsertionPoint(Function &F, Rng &R) {
  SmallVector<Instruction *, 64> Points;
  for (BasicBlock &BB : F)
    for (auto It = BB.getFirstInsertionPt(); It != BB.end(); ++It)
      Points.push_back(&*It);
  return Points.empty() ? nullptr : oneOf(R, Points);
}

/// Types a call can pass and a store can write.
static bool isPlainValueType(Type *T) {
  if (T->isVoidTy() || T->isLabelTy() || T->isMetadataTy() || T->isTokenTy() ||
      T->isX86_AMXTy() || isa<ScalableVectorType>(T) || isa<TargetExtType>(T))
    return false;
  if (auto *ST = dyn_cast<StructType>(T))
    return !ST->isOpaque() && ST->isSized() && !ST->containsScalableVectorType();
  return T->isSized();
}

ValuePool::ValuePool(Instruction &At, Rng &R) : R(R), Ctx(At.getContext()) {
  Function &F = *At.getFunction();
  for (Argument &A : F.args())
    if (isPlainValueType(A.getType()))
      Values.push_back(&A);
  DominatorTree DT(F);
  // Nothing dominates in unreachable code in a way the verifier checks for
  // self-references: keep to the arguments there.
  if (!DT.isReachableFromEntry(At.getParent()))
    return;
  for (Instruction &I : instructions(F))
    if (isPlainValueType(I.getType()) && DT.dominates(&I, &At))
      Values.push_back(&I);
}

Value *ValuePool::get(Type *T) {
  SmallVector<Value *, 8> OfType;
  for (Value *V : Values)
    if (V->getType() == T)
      OfType.push_back(V);
  if (!OfType.empty() && chance(R, 80))
    return oneOf(R, OfType);
  return randomConstant(T, R);
}

Type *ValuePool::typeOfSomeValue() {
  if (!Values.empty() && chance(R, 60))
    return oneOf(R, Values)->getType();
  return randomType(Ctx, R);
}

Value *ValuePool::condition(IRBuilderBase &B) {
  Type *I1 = Type::getInt1Ty(Ctx);
  SmallVector<Value *, 8> Ints;
  for (Value *V : Values)
    if (V->getType()->isIntegerTy())
      Ints.push_back(V);
  if (!Ints.empty() && chance(R, 50)) {
    Value *V = oneOf(R, Ints);
    if (V->getType() == I1)
      return V;
    return B.CreateICmpSLT(V, ConstantInt::get(V->getType(), below(R, 64)),
                           "wsfuzz.cond");
  }
  return ConstantInt::get(I1, below(R, 2));
}

AllocaInst *entryAlloca(Function &F, Type *T, const Twine &Name) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  return B.CreateAlloca(T, nullptr, Name);
}

} // namespace wsfuzz
