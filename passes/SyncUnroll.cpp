//===- SyncUnroll.cpp - ws-sync-unroll: a short sync loop unrolled ---------===//
//
// See SyncUnroll.h.
//
//===----------------------------------------------------------------------===//
#include "SyncUnroll.h"

#include "AbiNames.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace wsff {
namespace {

/// The most tasks a sync loop takes back that it is unrolled for, and the
/// most instructions of its body: 16 copies stay far below the unroller's
/// limit for a forced unroll, which then cannot fail (and warn).
constexpr unsigned MaxSyncUnroll = 16;
constexpr unsigned MaxBodySize = 128;

bool hasOperand(MDNode *ID, StringRef Name) {
  if (!ID)
    return false;
  for (unsigned I = 1; I < ID->getNumOperands(); ++I)
    if (auto *N = dyn_cast<MDNode>(ID->getOperand(I)))
      if (N->getNumOperands() && isa<MDString>(N->getOperand(0)) &&
          cast<MDString>(N->getOperand(0))->getString().starts_with(Name))
        return true;
  return false;
}

unsigned bodySize(const Loop &L) {
  unsigned N = 0;
  for (BasicBlock *BB : L.blocks())
    N += BB->sizeWithoutDebug();
  return N;
}

constexpr StringLiteral FullUnroll = "llvm.loop.unroll.full";

/// Loop ID ID without its FullUnroll operand.
MDNode *withoutRequest(MDNode *ID) {
  SmallVector<Metadata *, 4> Ops{nullptr};
  for (unsigned I = 1; I < ID->getNumOperands(); ++I) {
    auto *N = dyn_cast<MDNode>(ID->getOperand(I));
    auto *S = N && N->getNumOperands() ? dyn_cast<MDString>(N->getOperand(0)) : nullptr;
    if (!S || S->getString() != FullUnroll)
      Ops.push_back(ID->getOperand(I));
  }
  MDNode *New = MDNode::getDistinct(ID->getContext(), Ops);
  New->replaceOperandWith(0, New);
  return New;
}

} // namespace

PreservedAnalyses SyncUnrollPass::run(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution *SE = nullptr;
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    MDNode *ID = L->getLoopID();
    if (Strip) {
      if (hasOperand(ID, SyncLoopMD) && hasOperand(ID, FullUnroll)) {
        L->setLoopID(withoutRequest(ID));
        Changed = true;
      }
      continue;
    }
    // Ours, and no unroll request of anyone's already.
    if (!hasOperand(ID, SyncLoopMD) || hasOperand(ID, "llvm.loop.unroll."))
      continue;
    if (!SE)
      SE = &FAM.getResult<ScalarEvolutionAnalysis>(F);
    unsigned Count = SE->getSmallConstantTripCount(L);
    if (Count < 2 || Count > MaxSyncUnroll || bodySize(*L) > MaxBodySize)
      continue;
    LLVMContext &Ctx = F.getContext();
    SmallVector<Metadata *, 4> Ops{nullptr};
    for (unsigned I = 1; I < ID->getNumOperands(); ++I)
      Ops.push_back(ID->getOperand(I));
    Ops.push_back(MDNode::get(Ctx, MDString::get(Ctx, FullUnroll)));
    MDNode *New = MDNode::getDistinct(Ctx, Ops);
    New->replaceOperandWith(0, New);
    L->setLoopID(New);
    Changed = true;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  PA.preserve<LoopAnalysis>();
  PA.preserve<ScalarEvolutionAnalysis>();
  return PA;
}

} // namespace wsff
