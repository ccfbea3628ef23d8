//===- ResultLoads.cpp - ws-result-loads: result memory read in scalars ---===//
//
// See ResultLoads.h.
//
//===----------------------------------------------------------------------===//
#include "ResultLoads.h"

#include "AbiNames.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace wsff {

/// A vector load of an alloca ws-lower marked as a result's memory, whose
/// elements are whole bytes with no padding between them.
static bool readsResults(const LoadInst &LI, const DataLayout &DL) {
  auto *VT = dyn_cast<FixedVectorType>(LI.getType());
  if (!VT || !LI.isSimple())
    return false;
  Type *ET = VT->getElementType();
  TypeSize Bits = DL.getTypeSizeInBits(ET);
  if (Bits.isScalable() || Bits % 8 || DL.getTypeAllocSize(ET) * 8 != Bits)
    return false;
  auto *AI = dyn_cast<AllocaInst>(getUnderlyingObject(LI.getPointerOperand(), 0));
  return AI && AI->getMetadata(ResultObjectMD);
}

static void splitLoad(LoadInst &LI, const DataLayout &DL) {
  auto *VT = cast<FixedVectorType>(LI.getType());
  Type *ET = VT->getElementType();
  uint64_t Size = DL.getTypeAllocSize(ET);
  IRBuilder<> B(&LI);
  Value *V = PoisonValue::get(VT);
  for (unsigned I = 0, N = VT->getNumElements(); I < N; ++I) {
    Value *P = LI.getPointerOperand();
    if (I)
      P = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), P, I * Size);
    Align A = commonAlignment(LI.getAlign(), I * Size);
    LoadInst *E = B.CreateAlignedLoad(ET, P, A, LI.getName() + ".elt");
    // Atomic where the element allows it (a plain mov); volatile else.
    // Either way no later pass merges the loads back into one.
    if (A.value() >= Size && (ET->isIntOrPtrTy() || ET->isFloatingPointTy()))
      E->setAtomic(AtomicOrdering::Unordered);
    else
      E->setVolatile(true);
    V = B.CreateInsertElement(V, E, B.getInt64(I));
  }
  V->takeName(&LI);
  LI.replaceAllUsesWith(V);
  LI.eraseFromParent();
}

PreservedAnalyses ResultLoadsPass::run(Function &F, FunctionAnalysisManager &) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<LoadInst *, 8> Wide;
  for (Instruction &I : instructions(F))
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && readsResults(*LI, DL))
      Wide.push_back(LI);
  for (LoadInst *LI : Wide)
    splitLoad(*LI, DL);
  if (Wide.empty())
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace wsff
