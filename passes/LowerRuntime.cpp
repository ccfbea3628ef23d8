//===- LowerRuntime.cpp - ws-lower: the runtime as the module sees it -----===//

#include "LowerRuntime.h"

#include "AbiNames.h"
#include "Diagnose.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace wsff {

/// The markers must be the declarations of <ws/ws.h>, and only called.
/// Also accepts Earlier, the begin marker's type before it returned the
/// function (IR written against it).
bool checkBuiltin(Module &M, StringRef Name, FunctionType *Expected,
                  FunctionType *Earlier) {
  GlobalValue *GV = M.getNamedValue(Name);
  if (!GV)
    return true;
  auto Complain = [&](const Twine &Msg) {
    for (User *U : GV->users())
      if (auto *I = dyn_cast<Instruction>(U)) {
        errorAt(*I, Msg);
        return false;
      }
    error(M.getContext(), Msg);
    return false;
  };
  // A variable, alias or ifunc of the name: the lowering could not
  // declare the builtin next to it (and the calls are not to it).
  auto *Fn = dyn_cast<Function>(GV);
  if (!Fn)
    return Complain(Name + " is reserved for the ws builtins of <ws/ws.h> and "
                           "must not name a variable or an alias");
  if (!Fn->isDeclaration())
    return Complain(Name + " is reserved for the ws builtins of <ws/ws.h> and "
                           "must not be defined");
  if (Fn->getFunctionType() != Expected && Fn->getFunctionType() != Earlier) {
    std::string Found;
    raw_string_ostream OS(Found);
    Fn->getFunctionType()->print(OS);
    return Complain("the declaration of " + Name + " (" + OS.str() +
                    ") does not match <ws/ws.h>; do not redeclare the ws "
                    "builtins");
  }
  SmallVector<InvokeInst *, 2> Invokes;
  for (User *U : Fn->users()) {
    auto *CB = dyn_cast<CallBase>(U);
    if (!CB || CB->getCalledOperand() != Fn) {
      if (auto *I = dyn_cast<Instruction>(U))
        errorAt(*I, Name + " can only be called (through the ws_spawn and "
                           "ws_sync macros)");
      else
        error(M.getContext(), Name + " can only be called (through the "
                                     "ws_spawn and ws_sync macros)");
      return false;
    }
    if (auto *II = dyn_cast<InvokeInst>(CB))
      Invokes.push_back(II);
  }
  // Spawn markers are calls; an invoked ws_sync() keeps its handler, which
  // receives its tasks' exceptions.
  if (Name != SyncName)
    for (InvokeInst *II : Invokes)
      changeToCall(II);
  return true;
}

void countSpawn(IRBuilderBase &B, const Runtime &RT) {
  if (!RT.SpawnCount)
    return;
  Value *Count = B.CreateThreadLocalAddress(RT.SpawnCount);
  B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), Count), B.getInt64(1)),
                Count);
}

bool declareRuntime(Module &M, const WsOptions &Opts, Runtime &RT) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  Type *Int = Type::getInt32Ty(Ctx);
  bool OK = true;
  auto Get = [&](StringRef Name, FunctionType *FT, bool NoUnwind = true) {
    FunctionCallee C = M.getOrInsertFunction(Name, FT);
    auto *Fn = dyn_cast<Function>(C.getCallee());
    if (!Fn || Fn->getFunctionType() != FT) {
      error(M.getContext(), "the module declares the runtime entry point " +
                                Name + " differently from <ws/abi.h>");
      OK = false;
    } else if (NoUnwind) {
      Fn->addFnAttr(Attribute::NoUnwind);
    }
    return C;
  };
  RT.Tail = Get(TailName, FunctionType::get(Ptr, false));
  RT.TailOwned = Get(TailOwnedName, FunctionType::get(Ptr, false));
  RT.ViewsAbove = Get(ViewsAboveName, FunctionType::get(Int, {Ptr}, false));
  RT.ChildBegin = Get(ChildBeginName, FunctionType::get(Ptr, {Ptr}, false));
  RT.ChildEnd = Get(ChildEndName, FunctionType::get(Void, {Ptr}, false));
  // A submitted call runs user code on a worker: not nounwind.
  RT.Race = Opts.Race;
  if (Opts.Race) {
    RT.RaceEnter = Get(RaceEnterName, FunctionType::get(Void, {Ptr}, false));
    RT.RaceLeave = Get(RaceLeaveName, FunctionType::get(Void, false));
    RT.RaceSpawn = Get(RaceSpawnName, FunctionType::get(Void, {Ptr}, false));
    // A mark, not a call (ws/race_abi.def): it touches none of the
    // program's memory, so the optimizer moves accesses across it freely,
    // but not across the take-backs before it.
    RT.RaceSynced = Get(RaceSyncedName, FunctionType::get(Void, false));
    if (auto *Fn = dyn_cast<Function>(RT.RaceSynced.getCallee())) {
      Fn->setOnlyAccessesInaccessibleMemory();
      Fn->setWillReturn();
    }
  }
  RT.Submit = Get(SubmitName, FunctionType::get(Void, {Ptr, Ptr}, false),
                  /*NoUnwind=*/false);
  RT.Push = Get(pushName(Opts.Variant), FunctionType::get(Void, {Ptr}, false));
  RT.Take = Get(takeName(Opts.Variant), FunctionType::get(Int, {Ptr}, false));
  // Joining runs other tasks: it is not nounwind.  It returns the
  // exception the task threw, if it did.
  RT.Join = Get(JoinName, FunctionType::get(Ptr, {Ptr}, false),
                /*NoUnwind=*/false);
  // "runtime" (no row) may run split or private deques: it publishes.
  std::optional<VariantInfo> V = findVariant(Opts.Variant);
  if (!V || !V->PublishesTail)
    RT.Publish = dyn_cast<Function>(
        Get(PublishTailName, FunctionType::get(Void, {Ptr}, false)).getCallee());
  if (Opts.CountSpawns) {
    Type *I64 = Type::getInt64Ty(Ctx);
    RT.SpawnCount = dyn_cast_or_null<GlobalVariable>(M.getNamedValue(SpawnCountName));
    if (!RT.SpawnCount)
      RT.SpawnCount = new GlobalVariable(M, I64, false, GlobalValue::ExternalLinkage,
                                         nullptr, SpawnCountName, nullptr,
                                         GlobalValue::InitialExecTLSModel);
    if (!RT.SpawnCount->isThreadLocal() || RT.SpawnCount->getValueType() != I64) {
      error(Ctx, Twine(SpawnCountName) + " is the wsff runtime's spawn counter; "
                                         "the module declares it otherwise");
      OK = false;
    }
  }
  return OK;
}

} // namespace wsff
