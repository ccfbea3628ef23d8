//===- AntiCoalesce.cpp - ws-anticoalesce: stores after take() ------------===//

#include "AntiCoalesce.h"

#include "AbiNames.h"
#include "Diagnose.h"
#include "StoreBufferTable.h"
#include "StoreCount.h"

#include "ws/abi.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "ws-anticoalesce"

using namespace llvm;

namespace wsff {

unsigned storesForDelta(unsigned S, unsigned TargetDelta) {
  if (!TargetDelta)
    return 1;
  // delta = ceil(S/(x+1)) <= N  <=>  x + 1 >= S/N  <=>  x >= ceil(S/N) - 1
  unsigned X = (S + TargetDelta - 1) / TargetDelta - 1;
  return std::max(X, 1u);
}

/// The runtime's per-thread scratch lines, declared on first use; null,
/// after an error, when the module has something else under their name.
static GlobalVariable *scratchLines(Module &M) {
  Type *Ty = ArrayType::get(Type::getInt64Ty(M.getContext()), WS_SCRATCH_LINES * 8);
  if (GlobalValue *Named = M.getNamedValue(ScratchName)) {
    auto *GV = dyn_cast<GlobalVariable>(Named);
    if (GV && GV->isThreadLocal())
      return GV;
    error(M.getContext(), Twine(ScratchName) + " is the scratch space of the "
                                               "wsff runtime; the module "
                                               "defines it otherwise");
    return nullptr;
  }
  auto *GV = new GlobalVariable(M, Ty, false, GlobalValue::ExternalLinkage,
                                nullptr, ScratchName, nullptr,
                                GlobalValue::InitialExecTLSModel);
  GV->setAlignment(Align(64));
  return GV;
}

PreservedAnalyses AntiCoalescePass::run(Module &M, ModuleAnalysisManager &MAM) {
  const StoreCountResult &SC = MAM.getResult<StoreCountAnalysis>(M);
  if (SC.Sites.empty())
    return PreservedAnalyses::all();
  unsigned S = compileTimeStoreBuffer(M, Opts.StoreBuffer);
  unsigned Need = storesForDelta(S, Opts.TargetDelta);
  MDNode *Counted = MDNode::get(M.getContext(), {});
  bool Changed = false;
  for (const TakeSiteInfo &Site : SC.Sites) {
    if (Site.MinStores == UnboundedStores || Site.MinStores >= Need)
      continue;
    GlobalVariable *Scratch = scratchLines(M);
    if (!Scratch)
      break;
    unsigned Add = Need - Site.MinStores;
    IRBuilder<> B(Site.Take->getNextNode());
    B.SetCurrentDebugLocation(Site.Take->getDebugLoc());
    Value *Lines = B.CreateThreadLocalAddress(Scratch);
    for (unsigned K = 0; K < Add; ++K) {
      Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), Lines,
                                                 (K % WS_SCRATCH_LINES) * 8);
      B.CreateAlignedStore(B.getInt64(K), Slot, Align(8), /*isVolatile=*/true)
          ->setMetadata(CountedStoreMD, Counted);
    }
    Changed = true;
    Function &F = *Site.Take->getFunction();
    OptimizationRemarkEmitter ORE(&F);
    ORE.emit([&] {
      OptimizationRemark R(DEBUG_TYPE, "Inserted", Site.Take);
      R << "inserted " << ore::NV("Stores", Add) << " store(s) after take(): ";
      if (Opts.TargetDelta && Need > 1)
        R << "padding to x = " << ore::NV("X", Need) << " for delta <= "
          << ore::NV("TargetDelta", Opts.TargetDelta) << " with S = "
          << ore::NV("S", S);
      else
        R << "anti-coalescing, no store was proven before "
          << Site.NextWhat;
      return R;
    });
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace wsff
