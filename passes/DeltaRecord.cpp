//===- DeltaRecord.cpp - ws-delta: one record per module ------------------===//

#include "DeltaRecord.h"

#include "AbiNames.h"

#include "ws/abi.h"

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
    if (N->getNumOperands())
      if (const auto *S = dyn_cast<MDString>(N->getOperand(0)->getOperand(0)))
        return S->getString();
  return Opts.Variant;
}

static GlobalVariable *createRecord(Module &M, const WsOptions &Opts) {
  LLVMContext &Ctx = M.getContext();
  // Every take() of the runtime makes one anti-coalescing store (the
  // `takes` counter), so at least one store separates two takes.
  uint32_t X = 1;
  uint32_t S = Opts.StoreBuffer ? Opts.StoreBuffer : 256;
  uint32_t Delta = (S + X) / (X + 1);
  WsOptions V = Opts;
  V.Variant = moduleVariant(M, Opts).str();

  Type *I32 = Type::getInt32Ty(Ctx);
  auto *RecordTy = StructType::get(
      Ctx, {I32, I32, I32, I32, I32, I32, PointerType::getUnqual(Ctx)});
  Constant *Id = ConstantDataArray::getString(Ctx, M.getModuleIdentifier());
  auto *IdVar = new GlobalVariable(M, Id->getType(), true,
                                   GlobalValue::PrivateLinkage, Id,
                                   "__ws_delta_record.module");
  auto U32 = [&](uint32_t N) { return ConstantInt::get(I32, N); };
  Constant *Init = ConstantStruct::get(
      RecordTy, {U32(WS_RECORD_MAGIC), U32(WS_RECORD_VERSION), U32(X), U32(S),
                 U32(Delta), U32(V.variantId()), IdVar});
  auto *Record = new GlobalVariable(M, RecordTy, true,
                                    GlobalValue::InternalLinkage, Init,
                                    RecordName);
  Record->setSection(WS_RECORD_SECTION);
  Record->setAlignment(Align(8));
  appendToUsed(M, {Record});
  return Record;
}

void ensureRecord(Module &M, const WsOptions &Opts) {
  if (!M.getNamedGlobal(RecordName))
    createRecord(M, Opts);
}

PreservedAnalyses DeltaRecordPass::run(Module &M, ModuleAnalysisManager &) {
  if (M.getNamedGlobal(RecordName) || !moduleHasTakes(M))
    return PreservedAnalyses::all();
  createRecord(M, Opts);
  return PreservedAnalyses::none();
}

} // namespace wsff
