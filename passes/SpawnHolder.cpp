//===- SpawnHolder.cpp - A C++ spawn's holder as plain IR -----------------===//

#include "SpawnHolder.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace wsff {

/// The holder of a C++ spawn (ws::detail::held, a local of the spawning
/// function) is written by plain stores and read back for the spawned call
/// and its callee: each load of a field that one dominating store wrote
/// gets the stored value, so that the spawn calls the function itself, not
/// a pointer loaded from memory (the fast path then inlines it), and its
/// arguments are the values computed (as in C).
static void forwardHolderStores(Function &F, DominatorTree &DT) {
  const DataLayout &DL = F.getDataLayout();
  for (Instruction &I : F.getEntryBlock()) {
    auto *A = dyn_cast<AllocaInst>(&I);
    auto *ST = A ? dyn_cast<StructType>(A->getAllocatedType()) : nullptr;
    if (!ST || !ST->hasName() || !ST->getName().starts_with("class.ws::detail::held"))
      continue;
    // Its writes (stores, copies into it) and loads, by offset; give up
    // on anything else that may write it.
    struct Write {
      Instruction *I;
      int64_t Off, Size;
    };
    SmallVector<Write, 8> Writes;
    SmallVector<std::pair<LoadInst *, int64_t>, 8> Loads;
    bool Plain = true;
    SmallVector<Value *, 8> Work{A};
    while (!Work.empty() && Plain) {
      Value *V = Work.pop_back_val();
      for (User *U : V->users()) {
        int64_t Off = 0;
        bool Known = GetPointerBaseWithConstantOffset(V, Off, DL) == A;
        if (isa<GetElementPtrInst>(U)) {
          Work.push_back(U);
        } else if (auto *S = dyn_cast<StoreInst>(U)) {
          Plain = S->getPointerOperand() == V && S->isSimple() && Known;
          Writes.push_back(
              {S, Off, int64_t(DL.getTypeStoreSize(S->getValueOperand()->getType()))});
        } else if (auto *L = dyn_cast<LoadInst>(U)) {
          if (L->isSimple() && Known)
            Loads.push_back({L, Off});
        } else if (auto *M = dyn_cast<MemTransferInst>(U)) {
          auto *Len = dyn_cast<ConstantInt>(M->getLength());
          if (M->getRawDest() == V) {
            Plain = Known && Len && M->getRawSource() != V;
            if (Plain)
              Writes.push_back({M, Off, int64_t(Len->getZExtValue())});
          }
        } else if (auto *II = dyn_cast<IntrinsicInst>(U)) {
          Plain = II->isLifetimeStartOrEnd();
        } else {
          Plain = false;
        }
      }
    }
    if (!Plain)
      continue;
    for (auto [L, Off] : Loads) {
      int64_t Size = DL.getTypeStoreSize(L->getType());
      SmallVector<const Write *, 2> Overlapping;
      for (const Write &W : Writes)
        if (W.Off < Off + Size && Off < W.Off + W.Size)
          Overlapping.push_back(&W);
      auto *S = Overlapping.size() == 1 ? dyn_cast<StoreInst>(Overlapping[0]->I) : nullptr;
      if (S && Overlapping[0]->Off == Off &&
          S->getValueOperand()->getType() == L->getType() && DT.dominates(S, L)) {
        L->replaceAllUsesWith(S->getValueOperand());
        L->eraseFromParent();
      }
    }
  }
}

void inlineSpawnHelpers(Function &F) {
  SmallVector<AllocaInst *, 16> Inlined;
  for (bool Changed = true; Changed;) {
    Changed = false;
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() &&
              Callee->hasFnAttribute(Attribute::AlwaysInline) &&
              Callee->getName().starts_with("_ZN2ws6detail"))
            Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      InlineFunctionInfo IFI;
      if (InlineFunction(*CB, IFI).isSuccess()) {
        Changed = true;
        append_range(Inlined, IFI.StaticAllocas);
      }
    }
  }
  // At -O0 the helpers keep every value in a stack slot: registers again,
  // so that the addresses they pass on are plain values.
  SmallVector<AllocaInst *, 16> Promotable;
  for (AllocaInst *A : Inlined)
    if (isAllocaPromotable(A))
      Promotable.push_back(A);
  DominatorTree DT(F);
  if (!Promotable.empty()) {
    PromoteMemToReg(Promotable, DT);
    DT.recalculate(F);
  }
  forwardHolderStores(F, DT);
}

} // namespace wsff
