//===- DeltaRecord.cpp - ws-delta: one record per module ------------------===//

#include "DeltaRecord.h"

#include "AbiNames.h"
#include "Diagnose.h"
#include "StoreBufferTable.h"
#include "StoreCount.h"

#include "ws/abi.h"
#include "ws/delta.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstddef>

using namespace llvm;

namespace wsff {

// The record's layout as the passes build it: eight 32-bit fields, then
// the module name.  The plugin is compiled against the runtime's header,
// so a layout that drifted stops the build here.
static_assert(offsetof(ws_module_record, magic) == 0 &&
                  offsetof(ws_module_record, abi) == 7 * sizeof(uint32_t) &&
                  offsetof(ws_module_record, module) == 8 * sizeof(uint32_t),
              "ws_module_record is no longer eight uint32_t and a pointer");
enum RecordField { Magic, Version, X, SCompile, Delta, Variant, Flags, Abi, Name };

bool moduleHasTakes(const Module &M) {
  for (const Function &F : M) {
    if (F.isDeclaration() && !F.use_empty() &&
        abiCallEffect(F.getName()) == AbiEffect::Take)
      return true;
    for (const Instruction &I : instructions(F))
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand()))
          if (IA->getAsmString() == TakeMarkerAsm)
            return true;
  }
  return false;
}

static StructType *recordType(LLVMContext &Ctx) {
  Type *I32 = Type::getInt32Ty(Ctx);
  return StructType::get(Ctx, {I32, I32, I32, I32, I32, I32, I32, I32,
                               PointerType::getUnqual(Ctx)});
}

static Constant *recordInit(LLVMContext &Ctx, const ModuleFacts &F,
                            Constant *IdVar) {
  Type *I32 = Type::getInt32Ty(Ctx);
  auto U32 = [&](uint64_t N) { return ConstantInt::get(I32, N); };
  return ConstantStruct::get(
      recordType(Ctx),
      {U32(WS_RECORD_MAGIC), U32(WS_RECORD_VERSION), U32(F.X), U32(F.S),
       U32(ws_delta(F.S, F.X)), U32(F.Variant), U32(F.Flags), U32(WS_ABI_VERSION),
       IdVar});
}

/// The module's record, or null if it has none yet.  The name is the
/// passes': anything else under it (a variable of the program, a
/// declaration) is an error, and sets Taken.
static GlobalVariable *findRecord(Module &M, bool &Taken) {
  Taken = false;
  GlobalValue *GV = M.getNamedValue(DeltaRecordName);
  if (!GV)
    return nullptr;
  auto *Record = dyn_cast<GlobalVariable>(GV);
  auto *Init = Record && Record->hasInitializer()
                   ? dyn_cast<ConstantStruct>(Record->getInitializer())
                   : nullptr;
  if (Init && Init->getType() == recordType(M.getContext()) &&
      isa<GlobalVariable>(Init->getOperand(Name)))
    return Record;
  Taken = true;
  error(M.getContext(), Twine(DeltaRecordName) + " is reserved for the record of "
                                            "the wsff passes; the module "
                                            "defines it otherwise");
  return nullptr;
}

std::optional<ModuleFacts> readRecord(Module &M) {
  bool Taken;
  GlobalVariable *Record = findRecord(M, Taken);
  if (!Record)
    return std::nullopt;
  auto *Init = cast<ConstantStruct>(Record->getInitializer());
  auto Field = [&](RecordField K) {
    return (uint32_t)cast<ConstantInt>(Init->getOperand(K))->getZExtValue();
  };
  return ModuleFacts{Field(Variant), Field(X), Field(SCompile), Field(Flags)};
}

static void writeRecord(GlobalVariable *Record, const ModuleFacts &F) {
  auto *IdVar = cast<Constant>(
      cast<ConstantStruct>(Record->getInitializer())->getOperand(Name));
  Record->setInitializer(recordInit(Record->getContext(), F, IdVar));
}

void ensureRecord(Module &M, const WsOptions &Opts) {
  bool Taken;
  if (findRecord(M, Taken) || Taken)
    return;
  LLVMContext &Ctx = M.getContext();
  Constant *Id = ConstantDataArray::getString(Ctx, M.getModuleIdentifier());
  auto *IdVar = new GlobalVariable(M, Id->getType(), true,
                                   GlobalValue::PrivateLinkage, Id,
                                   ModuleRecordName);
  // Until the store count runs: every fence-free take of the runtime makes
  // one store of its own (ws/variants.def take_stores), so at least one
  // store separates two takes.
  ModuleFacts F{Opts.variantId(), 1, compileTimeStoreBuffer(M, Opts.StoreBuffer),
                Opts.CountSpawns ? WS_RECORD_COUNTS_SPAWNS : 0u};
  auto *Record = new GlobalVariable(M, recordType(Ctx), true,
                                    GlobalValue::InternalLinkage,
                                    recordInit(Ctx, F, IdVar), DeltaRecordName);
  Record->setSection(WS_RECORD_SECTION);
  Record->setAlignment(Align(8));
  appendToUsed(M, {Record});
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

/// The constructor that hands the record to the runtime
/// (__ws_register_module, ws/abi.h): the records of a shared library's
/// modules are not in the executable's ws_delta section, which is all the
/// runtime walks, so each module also registers its own.
static void addRegistration(Module &M, GlobalVariable *Record) {
  if (M.getFunction(RecordCtorName))
    return;
  LLVMContext &Ctx = M.getContext();
  FunctionCallee Register = M.getOrInsertFunction(
      WS_REGISTER_MODULE_FN, Type::getVoidTy(Ctx), PointerType::getUnqual(Ctx));
  auto *Ctor = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                GlobalValue::InternalLinkage, RecordCtorName, M);
  Ctor->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  B.CreateCall(Register, {Record});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 65535);
}

PreservedAnalyses DeltaRecordPass::run(Module &M, ModuleAnalysisManager &MAM) {
  bool Taken;
  GlobalVariable *Record = findRecord(M, Taken);
  if (Taken || (!Record && !moduleHasTakes(M)))
    return PreservedAnalyses::all();
  if (!Record) {
    ensureRecord(M, Opts);
    Record = findRecord(M, Taken);
  }
  const StoreCountResult &SC = MAM.getResult<StoreCountAnalysis>(M);
  emitRemarks(SC);
  ModuleFacts F = *readRecord(M);
  F.X = SC.ModuleX == UnboundedStores ? WS_X_UNBOUNDED : SC.ModuleX;
  writeRecord(Record, F);
  addRegistration(M, Record);
  return PreservedAnalyses::none();
}

} // namespace wsff
