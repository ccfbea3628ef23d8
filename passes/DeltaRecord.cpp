//===- DeltaRecord.cpp - ws-delta: one record per module ------------------===//

#include "DeltaRecord.h"

#include "AbiNames.h"
#include "Diagnose.h"
#include "StoreBufferTable.h"
#include "StoreCount.h"

#include "ws/abi.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace wsff {

static constexpr StringLiteral RecordName = "__ws_delta_record";

bool moduleHasTakes(const Module &M) {
  for (const Function &F : M) {
    if (F.getName().starts_with("__ws_take") && !F.use_empty())
      return true;
    for (const Instruction &I : instructions(F))
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand()))
          if (IA->getAsmString() == TakeMarkerAsm)
            return true;
  }
  return false;
}

static StringRef moduleVariant(const Module &M, const WsOptions &Opts) {
  if (const NamedMDNode *N = M.getNamedMetadata("ws.variant"))
    if (N->getNumOperands() && N->getOperand(0)->getNumOperands())
      if (const auto *S = dyn_cast<MDString>(N->getOperand(0)->getOperand(0)))
        return S->getString();
  return Opts.Variant;
}

/// ws_module_record: magic, version, x, S, delta, variant, module id.
static StructType *recordType(LLVMContext &Ctx) {
  Type *I32 = Type::getInt32Ty(Ctx);
  return StructType::get(Ctx,
                         {I32, I32, I32, I32, I32, I32, PointerType::getUnqual(Ctx)});
}

static Constant *recordInit(Module &M, const WsOptions &Opts, uint32_t X,
                            uint32_t S, GlobalVariable *IdVar) {
  LLVMContext &Ctx = M.getContext();
  uint32_t Delta = X == WS_X_UNBOUNDED ? 1 : (uint32_t)(((uint64_t)S + X) / (X + 1ull));
  WsOptions V = Opts;
  V.Variant = moduleVariant(M, Opts).str();
  Type *I32 = Type::getInt32Ty(Ctx);
  auto U32 = [&](uint32_t N) { return ConstantInt::get(I32, N); };
  return ConstantStruct::get(recordType(Ctx),
                             {U32(WS_RECORD_MAGIC), U32(WS_RECORD_VERSION),
                              U32(X), U32(S), U32(Delta), U32(V.variantId()),
                              IdVar});
}

static GlobalVariable *createRecord(Module &M, const WsOptions &Opts) {
  LLVMContext &Ctx = M.getContext();
  Constant *Id = ConstantDataArray::getString(Ctx, M.getModuleIdentifier());
  auto *IdVar = new GlobalVariable(M, Id->getType(), true,
                                   GlobalValue::PrivateLinkage, Id,
                                   "__ws_delta_record.module");
  // Until the store count runs: every take() of the runtime makes one
  // anti-coalescing store, so at least one store separates two takes.
  Constant *Init = recordInit(M, Opts, 1,
                              compileTimeStoreBuffer(M, Opts.StoreBuffer), IdVar);
  auto *Record = new GlobalVariable(M, Init->getType(), true,
                                    GlobalValue::InternalLinkage, Init,
                                    RecordName);
  Record->setSection(WS_RECORD_SECTION);
  Record->setAlignment(Align(8));
  appendToUsed(M, {Record});
  return Record;
}

/// The module's record, or null if it has none yet.  The name is the
/// passes': anything else under it (a variable of the program, a
/// declaration) is an error, and sets Taken.
static GlobalVariable *findRecord(Module &M, bool &Taken) {
  Taken = false;
  GlobalValue *GV = M.getNamedValue(RecordName);
  if (!GV)
    return nullptr;
  auto *Record = dyn_cast<GlobalVariable>(GV);
  auto *Init = Record && Record->hasInitializer()
                   ? dyn_cast<ConstantStruct>(Record->getInitializer())
                   : nullptr;
  if (Init && Init->getType() == recordType(M.getContext()) &&
      isa<GlobalVariable>(Init->getOperand(6)))
    return Record;
  Taken = true;
  error(M.getContext(), Twine(RecordName) + " is reserved for the record of "
                                            "the wsff passes; the module "
                                            "defines it otherwise");
  return nullptr;
}

void ensureRecord(Module &M, const WsOptions &Opts) {
  bool Taken;
  if (!findRecord(M, Taken) && !Taken)
    createRecord(M, Opts);
}

/// Explains each take site's x (-Rpass-analysis=ws-storecount).
static void emitRemarks(const StoreCountResult &SC) {
  for (const TakeSiteInfo &Site : SC.Sites) {
    OptimizationRemarkEmitter ORE(Site.Take->getFunction());
    ORE.emit([&] {
      OptimizationRemarkAnalysis R("ws-storecount", "MinStores", Site.Take);
      R << "minimum stores between take() calls: ";
      if (Site.MinStores == UnboundedStores)
        R << "unbounded (no take follows)";
      else
        R << ore::NV("MinStores", Site.MinStores) << "; the minimal path goes to "
          << Site.NextWhat;
      return R;
    });
  }
}

PreservedAnalyses DeltaRecordPass::run(Module &M, ModuleAnalysisManager &MAM) {
  bool Taken;
  GlobalVariable *Record = findRecord(M, Taken);
  if (Taken || (!Record && !moduleHasTakes(M)))
    return PreservedAnalyses::all();
  if (!Record)
    Record = createRecord(M, Opts);
  const StoreCountResult &SC = MAM.getResult<StoreCountAnalysis>(M);
  emitRemarks(SC);
  uint32_t X = SC.ModuleX == UnboundedStores ? WS_X_UNBOUNDED : SC.ModuleX;
  auto *IdVar = cast<GlobalVariable>(
      cast<ConstantStruct>(Record->getInitializer())->getOperand(6));
  Record->setInitializer(
      recordInit(M, Opts, X, compileTimeStoreBuffer(M, Opts.StoreBuffer), IdVar));
  return PreservedAnalyses::none();
}

} // namespace wsff
