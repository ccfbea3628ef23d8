//===- AntiCoalesce.cpp - ws-anticoalesce: stores after take() ------------===//

#include "AntiCoalesce.h"

#include "AbiLinker.h"

#include "DeltaRecord.h"

#include "AbiNames.h"
#include "Diagnose.h"
#include "StoreBufferTable.h"
#include "StoreCount.h"

#include "ws/abi.h"
#include "ws/delta.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "ws-anticoalesce"

using namespace llvm;

namespace wsff {

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
  setRuntimeTlsModel(M, *GV);
  GV->setAlignment(Align(64));
  return GV;
}

/// Where the stores go: right after the take, or, for a take that is an
/// invoke (a call the inliner put under a landing pad), at the start of its
/// normal path, on an edge of its own.
static Instruction *afterTake(Instruction &Take) {
  auto *II = dyn_cast<InvokeInst>(&Take);
  if (!II)
    return Take.getNextNode();
  BasicBlock *Normal = II->getNormalDest();
  if (!Normal->getSinglePredecessor())
    Normal = SplitEdge(II->getParent(), Normal);
  return &*Normal->getFirstInsertionPt();
}

PreservedAnalyses AntiCoalescePass::run(Module &M, ModuleAnalysisManager &MAM) {
  const StoreCountResult &SC = MAM.getResult<StoreCountAnalysis>(M);
  if (SC.Sites.empty())
    return PreservedAnalyses::all();
  // S as ws-lower settled it for this module, in its record.
  std::optional<ModuleFacts> Facts = readRecord(M);
  // A fenced variant's take ends in a locked instruction that drains the
  // store buffer: nothing after it can coalesce with T := t, and no thief
  // reasons about delta.  "runtime" (no row) may pick a fence-free deque
  // at start-up, so it is padded.
  std::optional<VariantInfo> Row =
      Facts ? findVariant(Facts->Variant) : findVariant(StringRef(Opts.Variant));
  if (Row && !Row->FenceFree)
    return PreservedAnalyses::all();
  unsigned S = Facts ? Facts->S : compileTimeStoreBuffer(M, Opts.StoreBuffer);
  unsigned Need = ws_stores_for_delta(S, Opts.TargetDelta);
  MDNode *Counted = MDNode::get(M.getContext(), {});
  bool Changed = false;
  for (const TakeSiteInfo &Site : SC.Sites) {
    if (Site.MinStores == UnboundedStores || Site.MinStores >= Need)
      continue;
    GlobalVariable *Scratch = scratchLines(M);
    if (!Scratch)
      break;
    unsigned Add = Need - Site.MinStores;
    IRBuilder<> B(afterTake(*Site.Take));
    B.SetCurrentDebugLocation(Site.Take->getDebugLoc());
    Value *Lines = B.CreateThreadLocalAddress(Scratch);
    // Line 0 takes the runtime's own anti-coalescing store (deque.h):
    // round-robin from line 1, so no two consecutive stores share a line.
    for (unsigned K = 0; K < Add; ++K) {
      Value *Slot = B.CreateConstInBoundsGEP1_64(
          B.getInt64Ty(), Lines, ((K + 1) % WS_SCRATCH_LINES) * 8);
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
