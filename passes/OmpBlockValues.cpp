//===- OmpBlockValues.cpp - A fast-path task's block as values -----------===//
//
// See OmpBlockValues.h.
//
//===----------------------------------------------------------------------===//
#include "OmpBlockValues.h"

#include "ws/abi.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace wsff {
namespace {

/// One write into the block: [Begin, End), and what a store wrote.
struct Write {
  uint64_t Begin, End;
  Value *Stored;        ///< null for a memory intrinsic
  StoreInst *St = nullptr;
};

/// Is V Task plus a constant (into Offset)?
bool inBlock(Value *V, AllocaInst &Task, const DataLayout &DL, uint64_t &Offset) {
  APInt Off(DL.getIndexTypeSizeInBits(V->getType()), 0);
  Value *Base = V->stripAndAccumulateConstantOffsets(DL, Off, /*AllowNonInbounds=*/true);
  if (Base != &Task || Off.isNegative())
    return false;
  Offset = Off.getZExtValue();
  return true;
}

/// A value the body may be given and store as it was stored.
bool passable(Type *T) {
  return T->isIntegerTy() || T->isPointerTy() || T->isFloatTy() || T->isDoubleTy();
}

} // namespace

bool forEachBlockUse(AllocaInst &Task,
                     function_ref<bool(Instruction &, Value *, uint64_t)> Visit) {
  const DataLayout &DL = Task.getModule()->getDataLayout();
  SmallVector<std::pair<Value *, uint64_t>, 8> Work{{&Task, 0}};
  SmallPtrSet<Value *, 16> Seen{&Task};
  while (!Work.empty()) {
    auto [V, Offset] = Work.pop_back_val();
    for (User *U : V->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I)
        return false;
      if (auto *GEP = dyn_cast<GetElementPtrInst>(I)) {
        APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
        if (!GEP->accumulateConstantOffset(DL, Off) || Off.isNegative())
          return false;
        if (Seen.insert(GEP).second)
          Work.push_back({GEP, Offset + Off.getZExtValue()});
      } else if (isa<BitCastInst>(I)) {
        if (Seen.insert(I).second)
          Work.push_back({I, Offset});
      } else if (auto *II = dyn_cast<IntrinsicInst>(I);
                 II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))) {
        continue;
      } else if (!Visit(*I, V, Offset)) {
        return false;
      }
    }
  }
  return true;
}

std::optional<BlockValues> BlockValues::of(AllocaInst &Task, Instruction &Launch) {
  const DataLayout &DL = Task.getModule()->getDataLayout();
  std::optional<TypeSize> Size = Task.getAllocationSize(DL);
  if (!Size || Size->isScalable())
    return std::nullopt;
  BasicBlock *Where = Launch.getParent();
  // A write counts only in the launch's block, before it.
  auto Before = [&](Instruction *I) {
    return I->getParent() == Where && I->comesBefore(&Launch);
  };
  SmallVector<Write, 8> Writes;
  SmallVector<std::pair<uint64_t, uint64_t>, 8> Reads;
  bool Plain = forEachBlockUse(Task, [&](Instruction &I, Value *V, uint64_t Offset) {
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      Reads.push_back({Offset, Offset + DL.getTypeStoreSize(L->getType())});
      return L->isSimple();
    }
    if (auto *St = dyn_cast<StoreInst>(&I)) {
      // The block's address stored: into the block (the shareds pointer;
      // the write is seen as the block's), or it escapes.
      uint64_t Into;
      if (St->getValueOperand() == V)
        return St->getPointerOperand() != V && inBlock(St->getPointerOperand(), Task, DL, Into);
      if (!St->isSimple() || !Before(St))
        return false;
      uint64_t Bytes = DL.getTypeStoreSize(St->getValueOperand()->getType());
      Writes.push_back({Offset, Offset + Bytes, St->getValueOperand(), St});
      return true;
    }
    if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
      auto *Len = dyn_cast<ConstantInt>(MI->getLength());
      if (MI->isVolatile() || !Len)
        return false;
      if (MI->getRawDest() != V) { // a copy out of it
        Reads.push_back({Offset, Offset + Len->getZExtValue()});
        return true;
      }
      Writes.push_back({Offset, Offset + Len->getZExtValue(), nullptr});
      return Before(MI);
    }
    return &I == &Launch && V == &Task;
  });
  if (!Plain)
    return std::nullopt;
  for (const Write &W : Writes)
    if (W.End > Size->getFixedValue())
      return std::nullopt;
  sort(Writes, [](const Write &A, const Write &B) { return A.Begin < B.Begin; });

  BlockValues R;
  LLVMContext &Ctx = Task.getContext();
  uint64_t Passed = 0; // their bytes, as a slot's payload lays them out
  uint64_t SharedsAt = ~0ull;
  auto Pass = [&](uint64_t Offset, Type *T) {
    Align A = DL.getABITypeAlign(T);
    Passed = alignTo(Passed, A) + DL.getTypeAllocSize(T);
    R.Words.push_back({Offset, T, Kind::Passed});
  };
  for (unsigned I = 0; I < Writes.size();) {
    // A run of writes that overlap.
    uint64_t Begin = Writes[I].Begin, End = Writes[I].End;
    unsigned J = I + 1;
    while (J < Writes.size() && Writes[J].Begin < End)
      End = std::max(End, Writes[J++].End);
    Value *Stored = J == I + 1 ? Writes[I].Stored : nullptr;
    StoreInst *Single = J == I + 1 ? Writes[I].St : nullptr;
    I = J;
    if (Begin == End)
      continue;
    uint64_t Target;
    if (Stored && Stored->getType()->isPointerTy() &&
        inBlock(Stored, Task, DL, Target)) {
      R.Words.push_back({Begin, Stored->getType(), Kind::Self, nullptr, Target});
      R.SelfStores.push_back(Single);
      if (Begin == 0)
        SharedsAt = Target;
      continue;
    }
    if (Stored && isa<Constant>(Stored) && !isa<ConstantExpr>(Stored) &&
        passable(Stored->getType())) {
      R.Words.push_back({Begin, Stored->getType(), Kind::Constant, cast<Constant>(Stored)});
      continue;
    }
    if (Stored && passable(Stored->getType()) &&
        DL.getTypeStoreSize(Stored->getType()) == DL.getTypeAllocSize(Stored->getType())) {
      Pass(Begin, Stored->getType());
      continue;
    }
    // Bytes: words where aligned, smaller pieces at the ends; the shareds'
    // words are addresses (clang's shareds are the shared variables').
    for (uint64_t P = Begin; P < End;) {
      uint64_t N = End - P, Piece = 1;
      for (uint64_t C : {8, 4, 2})
        if (N >= C && P % C == 0) {
          Piece = C;
          break;
        }
      Pass(P, Piece == 8 && P >= SharedsAt ? static_cast<Type *>(PointerType::getUnqual(Ctx))
                                           : Type::getIntNTy(Ctx, Piece * 8));
      P += Piece;
    }
  }
  // The block's address is stored only as a word of its own, and no load
  // reads it back (the creator would then write the block through it,
  // unseen here: OmpTasks.cpp forwards the shareds pointer first).
  for (const Write &W : Writes) {
    uint64_t Target;
    if (!W.Stored || !W.Stored->getType()->isPointerTy() || !inBlock(W.Stored, Task, DL, Target))
      continue;
    if (none_of(R.Words, [&](const Word &X) { return X.K == Kind::Self && X.Offset == W.Begin; }))
      return std::nullopt;
    if (any_of(Reads, [&](const std::pair<uint64_t, uint64_t> &Rd) {
          return Rd.first < W.End && W.Begin < Rd.second;
        }))
      return std::nullopt;
  }
  if (alignTo(Passed, 16) > WS_SLOT_PAYLOAD)
    return std::nullopt;
  return R;
}

SmallVector<Type *, 6> BlockValues::argTypes() const {
  SmallVector<Type *, 6> Types;
  for (const Word &W : Words)
    if (W.K == Kind::Passed)
      Types.push_back(W.Ty);
  return Types;
}

SmallVector<Value *, 6> BlockValues::load(IRBuilderBase &B, Value *Task) const {
  SmallVector<Value *, 6> Values;
  for (const Word &W : Words)
    if (W.K == Kind::Passed)
      Values.push_back(B.CreateAlignedLoad(
          W.Ty, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Task, W.Offset),
          commonAlignment(Align(16), W.Offset), "ws.omp.word"));
  return Values;
}

void BlockValues::store(IRBuilderBase &B, Value *Block, ArrayRef<Value *> Args) const {
  // The shareds: [Target, end of the block) of the word at offset 0.
  uint64_t SharedsAt = ~0ull;
  Value *Shareds = nullptr;
  for (const Word &W : Words)
    if (W.K == Kind::Self && W.Offset == 0) {
      const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
      auto *A = cast<AllocaInst>(Block);
      uint64_t Size = A->getAllocationSize(DL)->getFixedValue();
      if (W.Target < Size && W.Target > 0) {
        SharedsAt = W.Target;
        auto *S = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), Size - W.Target), nullptr,
                                 "ws.omp.shareds");
        S->setAlignment(Align(16));
        Shareds = S;
      }
    }
  auto At = [&](uint64_t Offset) {
    if (Offset >= SharedsAt)
      return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Shareds, Offset - SharedsAt);
    return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Block, Offset);
  };
  unsigned Next = 0;
  for (const Word &W : Words) {
    Value *V = nullptr;
    switch (W.K) {
    case Kind::Passed:
      V = Args[Next++];
      break;
    case Kind::Constant:
      V = W.C;
      break;
    case Kind::Self:
      V = At(W.Target);
      break;
    }
    B.CreateAlignedStore(V, At(W.Offset), commonAlignment(Align(16), W.Offset));
  }
}

void BlockValues::dropSelfStores() {
  for (StoreInst *St : SelfStores)
    St->eraseFromParent();
  SelfStores.clear();
}

bool BlockValues::operator==(const BlockValues &O) const {
  return Words.size() == O.Words.size() &&
         all_of(zip(Words, O.Words), [](const auto &P) {
           const Word &A = std::get<0>(P), &B = std::get<1>(P);
           return A.Offset == B.Offset && A.Ty == B.Ty && A.K == B.K && A.C == B.C &&
                  A.Target == B.Target;
         });
}

} // namespace wsff
