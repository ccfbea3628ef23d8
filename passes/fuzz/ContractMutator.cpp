//===- ContractMutator.cpp - What the passes assume of a module -----------===//

#include "ContractMutator.h"

#include "RandomIR.h"

#include "AbiNames.h"

#include "llvm/FuzzMutate/RandomIRBuilder.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wsfuzz {
namespace {

const char *const Variants[] = {
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail,   \
                   validated_only, summary)                                    \
  #name,
#include "ws/variants.def"
#undef WS_VARIANT
};

using namespace wsff;

/// The runtime functions compiled code calls (ws/abi.def).
const char *const AbiCalls[] = {
#define WS_ABI_CALL(name, handle, effect) #name,
#include "ws/abi.def"
};

/// The user API's markers (ws/abi.def).
const char *const BuiltinNames[] = {
#define WS_ABI_MARKER(name, handle) #name,
#include "ws/abi.def"
};

std::string randomVariant(Rng &R) { return Variants[below(R, std::size(Variants))]; }

/// Names the passes declare, define or look up.
std::string reservedName(Function &F, Rng &R) {
  switch (below(R, 12)) {
  case 0:
    return DeltaRecordName.str();
  case 1:
    return chance(R, 50) ? ModuleRecordName.str() : RecordCtorName.str();
  case 2:
    return ThreadLocalNames[below(R, std::size(ThreadLocalNames))].str();
  case 3:
    return AbiCalls[below(R, std::size(AbiCalls))];
  case 4:
    return (F.getName() + CloneSuffix).str();
  case 5:
    return pushName(randomVariant(R));
  case 6:
    return takeName(randomVariant(R));
  case 7:
    return chance(R, 50) ? pushName("runtime") : takeName("runtime");
  case 8:
    return (BodyPrefix + F.getName() + ".0").str();
  case 9:
    return (ThunkPrefix + F.getName() + ".0").str();
  case 10:
    return (F.getName() + LeafEntrySuffix).str();
  default:
    return BuiltinNames[below(R, std::size(BuiltinNames))];
  }
}

FunctionType *randomFunctionType(LLVMContext &Ctx, Rng &R) {
  SmallVector<Type *, 4> Params;
  for (unsigned I = 0, N = below(R, 4); I < N; ++I)
    Params.push_back(randomType(Ctx, R));
  return FunctionType::get(randomReturnType(Ctx, R), Params, chance(R, 30));
}

/// A call of Callee with type FT and arguments from the pool, at At.
void callAt(Instruction &At, FunctionType *FT, Value *Callee, ValuePool &Pool) {
  SmallVector<Value *, 4> Args;
  for (Type *T : FT->params())
    Args.push_back(Pool.get(T));
  CallInst::Create(FT, Callee, Args, "", &At);
}

/// Something else under a reserved name: a function of another type (maybe
/// defined), or a variable (maybe thread-local, maybe without initializer),
/// used at At.
void occupyReservedName(Function &F, Instruction &At, Rng &R) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  std::string Name = reservedName(F, R);
  if (M.getNamedValue(Name))
    return;
  ValuePool Pool(At, R);
  if (chance(R, 50)) {
    FunctionType *FT = randomFunctionType(Ctx, R);
    Function *Fn = Function::Create(FT, GlobalValue::ExternalLinkage, Name, M);
    if (chance(R, 30)) {
      IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Fn));
      if (FT->getReturnType()->isVoidTy())
        B.CreateRetVoid();
      else
        B.CreateRet(randomConstant(FT->getReturnType(), R));
    }
    if (chance(R, 70))
      callAt(At, FT, Fn, Pool);
    return;
  }
  Type *T = randomType(Ctx, R);
  auto *GV = new GlobalVariable(M, T, chance(R, 50), GlobalValue::ExternalLinkage,
                                chance(R, 50) ? randomConstant(T, R) : nullptr, Name);
  if (chance(R, 20))
    GV->setThreadLocal(true);
  if (chance(R, 60))
    new LoadInst(T, GV, "wsfuzz.reserved", &At);
}

/// A builtin declared with another type, defined, or with its address taken.
void misuseBuiltin(Function &F, Instruction &At, Rng &R) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  std::string Name = BuiltinNames[below(R, 3)];
  ValuePool Pool(At, R);
  Type *Void = Type::getVoidTy(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);
  FunctionType *Expected = Name == SpawnBeginName
                               ? FunctionType::get(Void, {Ptr}, true)
                               : FunctionType::get(Void, false);
  switch (below(R, 3)) {
  case 0: { // declared with another type, or called with another type
    FunctionType *FT = randomFunctionType(Ctx, R);
    FunctionCallee C = M.getOrInsertFunction(Name, FT);
    callAt(At, FT, C.getCallee(), Pool);
    return;
  }
  case 1: { // defined
    if (M.getNamedValue(Name))
      return;
    Function *Fn = Function::Create(Expected, GlobalValue::ExternalLinkage, Name, M);
    ReturnInst::Create(Ctx, BasicBlock::Create(Ctx, "entry", Fn));
    callAt(At, Expected, Fn, Pool);
    return;
  }
  default: { // its address taken
    Value *Fn = M.getOrInsertFunction(Name, Expected).getCallee();
    switch (below(R, 3)) {
    case 0:
      new GlobalVariable(M, Ptr, false, GlobalValue::ExternalLinkage,
                         cast<Constant>(Fn), "wsfuzz.addr");
      return;
    case 1:
      new StoreInst(Fn, entryAlloca(F, Ptr, "wsfuzz.addr"), &At);
      return;
    default: {
      FunctionCallee Sink = M.getOrInsertFunction("wsfuzz.sink",
                                                  FunctionType::get(Void, {Ptr}, false));
      CallInst::Create(Sink, {Fn}, "", &At);
      return;
    }
    }
  }
  }
}

/// Metadata the passes write, in shapes they never write.
void wsMetadata(Function &F, Rng &R) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  if (chance(R, 20)) { // a function that says it is a clone of ws-lower's
    F.addFnAttr(CloneAttr);
    return;
  }
  SmallVector<Instruction *, 32> Insts;
  for (Instruction &I : instructions(F))
    Insts.push_back(&I);
  if (Insts.empty())
    return;
  const StringLiteral Kinds[] = {TakeSiteMD, CountedStoreMD, TailStoreMD, SyncCallMD,
                                 SpawnedCallMD};
  oneOf(R, Insts)->setMetadata(Kinds[below(R, std::size(Kinds))], MDNode::get(Ctx, {}));
}

/// A take site the store count must see: a call of a take entry point,
/// the asm marker the fast paths carry, or a conflict path.
void takeSite(Function &F, Instruction &At, Rng &R) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  ValuePool Pool(At, R);
  switch (below(R, 4)) {
  case 0: {
    FunctionType *FT = FunctionType::get(Type::getInt32Ty(Ctx), {Ptr}, false);
    callAt(At, FT, M.getOrInsertFunction(takeName(randomVariant(R)), FT).getCallee(),
           Pool);
    return;
  }
  case 1: {
    FunctionType *FT = FunctionType::get(Type::getVoidTy(Ctx), false);
    CallInst::Create(FT, InlineAsm::get(FT, TakeMarkerAsm, "~{memory}", true), "", &At);
    return;
  }
  case 2: {
    FunctionType *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false);
    callAt(At, FT, M.getOrInsertFunction(pushName(randomVariant(R)), FT).getCallee(),
           Pool);
    return;
  }
  default: {
    FunctionType *FT = FunctionType::get(Type::getInt32Ty(Ctx), {Ptr}, false);
    callAt(At, FT,
           M.getOrInsertFunction(AbiCalls[below(R, std::size(AbiCalls))], FT).getCallee(),
           Pool);
    return;
  }
  }
}

/// Stores the store count may count, and what drains the store buffer.
void memoryOperation(Function &F, Instruction &At, Rng &R) {
  LLVMContext &Ctx = F.getContext();
  ValuePool Pool(At, R);
  IRBuilder<> B(&At);
  Value *Addr = chance(R, 50) ? Pool.get(B.getPtrTy())
                              : entryAlloca(F, B.getInt64Ty(), "wsfuzz.slot");
  if (isa<Constant>(Addr)) // no stores to null and friends
    Addr = entryAlloca(F, B.getInt64Ty(), "wsfuzz.slot");
  switch (below(R, 5)) {
  case 0: {
    StoreInst *SI = B.CreateAlignedStore(B.getInt64(below(R, 9)), Addr, Align(8), true);
    if (chance(R, 30))
      SI->setMetadata(chance(R, 50) ? CountedStoreMD : TailStoreMD, MDNode::get(Ctx, {}));
    return;
  }
  case 1: {
    StoreInst *SI = B.CreateAlignedStore(B.getInt64(1), Addr, Align(8));
    SI->setAtomic(chance(R, 50) ? AtomicOrdering::SequentiallyConsistent
                                : AtomicOrdering::Release);
    return;
  }
  case 2:
    B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    return;
  case 3:
    B.CreateAtomicRMW(AtomicRMWInst::Add, Addr, B.getInt64(1), Align(8),
                      AtomicOrdering::SequentiallyConsistent);
    return;
  default:
    B.CreateAtomicCmpXchg(Addr, B.getInt64(0), B.getInt64(1), Align(8),
                          AtomicOrdering::SequentiallyConsistent,
                          AtomicOrdering::SequentiallyConsistent);
    return;
  }
}

/// A CPU the compile-time S table knows, one it does not, or none.
/// (A CPU LLVM does not know is a fatal error in LLVM itself.)
void targetCpu(Function &F, Rng &R) {
  const char *CPUs[] = {"skylake", "znver4", "alderlake", "x86-64", "goldmont", ""};
  StringRef CPU = CPUs[below(R, std::size(CPUs))];
  if (CPU.empty())
    F.removeFnAttr("target-cpu");
  else
    F.addFnAttr("target-cpu", CPU);
}

/// Stack the function allocates itself: the lowering saves and restores
/// the stack around descriptors of spawns in loops only when it has none.
void dynamicStack(Function &F, Instruction &At, Rng &R) {
  ValuePool Pool(At, R);
  IRBuilder<> B(&At);
  if (chance(R, 50)) {
    B.CreateAlloca(B.getInt8Ty(), Pool.get(B.getInt64Ty()), "wsfuzz.vla");
    return;
  }
  Value *Saved = B.CreateStackSave("wsfuzz.sp");
  B.CreateAlloca(B.getInt32Ty(), B.getInt64(1 + below(R, 8)), "wsfuzz.tmp");
  B.CreateStackRestore(Saved);
}

/// Function attributes the lowering copies to task bodies and thunks, or
/// that change how the optimizer treats the spawned code.
void functionAttributes(Function &F, Rng &R) {
  switch (below(R, 4)) {
  case 0:
    if (!F.hasFnAttribute(Attribute::AlwaysInline)) {
      F.addFnAttr(Attribute::OptimizeNone);
      F.addFnAttr(Attribute::NoInline);
    }
    return;
  case 1:
    if (!F.hasFnAttribute(Attribute::NoInline))
      F.addFnAttr(Attribute::AlwaysInline);
    return;
  case 2:
    F.addFnAttr(Attribute::Cold);
    return;
  default:
    F.addFnAttr(Attribute::NoUnwind);
    return;
  }
}

/// x86-64, so that the runtime's fast paths link into the module.
void retarget(Module &M) {
  if (!M.getTargetTriple().empty())
    return;
  M.setTargetTriple("x86_64-pc-linux-gnu");
  M.setDataLayout("e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-"
                  "f80:128-n8:16:32:64-S128");
}

} // namespace

void ContractMutator::mutate(Function &F, RandomIRBuilder &IB) {
  Rng &R = IB.Rand;
  Instruction *At = randomInsertionPoint(F, R);
  if (!At)
    return;
  switch (below(R, 11)) {
  case 9:
    dynamicStack(F, *At, R);
    return;
  case 10:
    functionAttributes(F, R);
    return;
  case 0:
    misuseBuiltin(F, *At, R);
    return;
  case 1:
    occupyReservedName(F, *At, R);
    return;
  case 2:
    wsMetadata(F, R);
    return;
  case 3:
  case 4:
    takeSite(F, *At, R);
    return;
  case 5:
  case 6:
    memoryOperation(F, *At, R);
    return;
  case 7:
    targetCpu(F, R);
    return;
  default:
    retarget(*F.getParent());
    return;
  }
}

} // namespace wsfuzz
