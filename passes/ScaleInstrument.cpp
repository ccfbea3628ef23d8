//===- ScaleInstrument.cpp - ws-scale: measure work and span --------------===//

#include "ScaleInstrument.h"

#include "AbiNames.h"
#include "ScaleAbi.h"
#include "ScaleCount.h"
#include "SpawnCall.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#define DEBUG_TYPE "ws-scale"

using namespace llvm;

namespace wsff {

namespace {

using Hook = ScaleHook;

/// Function attributes the wrapper takes from the spawning function, so
/// that it inlines anywhere the spawning function's code does.
const char *const InheritedAttrs[] = {"target-cpu", "target-features",
                                      "tune-cpu", "frame-pointer"};

bool isCallOf(const Instruction &I, const Function *F) {
  const auto *CB = dyn_cast<CallBase>(&I);
  return CB && F && CB->getCalledOperand() == F;
}

class ScaleInstrumenter {
public:
  explicit ScaleInstrumenter(Module &M) : M(M), Ctx(M.getContext()) {}
  bool run();

private:
  Module &M;
  LLVMContext &Ctx;
  FunctionCallee Hooks[unsigned(Hook::Count)];
  Function *BeginFn = nullptr;
  Function *SyncFn = nullptr;

  FunctionCallee hook(Hook H) { return Hooks[unsigned(H)]; }
  void declareHooks();
  void instrument(Function &F, ArrayRef<CallInst *> Begins);
  bool exitsOf(Function &F, SmallVectorImpl<Instruction *> &Exits);
  bool measureSpawn(CallInst *Begin, Function &F, AllocaInst *At);
  CallBase *spawnedCall(CallInst &Begin) const;
  bool canWrap(const CallBase &Call, StringRef &Why) const;
  Function *wrapper(CallBase &Call, bool Indirect, Function &Spawner);
  void warnAt(const Instruction &I, const Twine &Msg) const;
};

void ScaleInstrumenter::declareHooks() {
  for (unsigned I = 0; I != unsigned(Hook::Count); ++I) {
    const ScaleHookSpec &S = ScaleHookSpecs[I];
    SmallVector<StringRef, 4> CParams;
    StringRef(S.Params).split(CParams, ',');
    SmallVector<Type *, 4> Params;
    for (StringRef P : CParams)
      if (Type *T = scaleIRType(P, Ctx); !T->isVoidTy())
        Params.push_back(T);
    auto *Ty = FunctionType::get(scaleIRType(S.Returns, Ctx), Params, false);
    AttributeList NoUnwind =
        AttributeList::get(Ctx, AttributeList::FunctionIndex,
                           {Attribute::NoUnwind});
    Hooks[I] = M.getOrInsertFunction(S.Name, Ty, NoUnwind);
  }
  // The start-up's anchor (ws/scale_hooks.def `start`): a reference that
  // makes a static link take libws_scale's start-up with the hooks.
  if (!M.getNamedGlobal(ScaleData_start.str() + ".ref")) {
    Constant *Anchor = M.getOrInsertGlobal(ScaleData_start, Type::getInt32Ty(Ctx));
    auto *Ref = new GlobalVariable(M, Anchor->getType(), true,
                                   GlobalValue::PrivateLinkage, Anchor,
                                   ScaleData_start.str() + ".ref");
    appendToCompilerUsed(M, {Ref});
  }
}

void ScaleInstrumenter::warnAt(const Instruction &I, const Twine &Msg) const {
  const Function &F = *I.getFunction();
  Ctx.diagnose(DiagnosticInfoOptimizationFailure(
      F, DiagnosticLocation(I.getDebugLoc()), "ws-scale: " + Msg));
}

/// The call the spawn runs (passes/SpawnCall.h).  Null when the region is
/// not the macro's shape; ws-lower reports that.
CallBase *ScaleInstrumenter::spawnedCall(CallInst &Begin) const {
  CallInst *End = spawnEndOf(Begin);
  return End ? spawnedCallOf(Begin, *End) : nullptr;
}

bool ScaleInstrumenter::canWrap(const CallBase &Call, StringRef &Why) const {
  if (Call.hasOperandBundles())
    Why = "the spawned call has operand bundles";
  else if (Call.isMustTailCall())
    Why = "the spawned call is musttail";
  else if (isa<CallBrInst>(Call))
    Why = "the spawned call is a callbr";
  else
    for (unsigned I = 0, E = Call.arg_size(); I != E; ++I)
      for (Attribute::AttrKind K :
           {Attribute::InAlloca, Attribute::Preallocated,
            Attribute::SwiftError, Attribute::SwiftSelf, Attribute::SwiftAsync})
        if (Call.paramHasAttr(I, K)) {
          Why = "an argument of the spawned call has an attribute the "
                "wrapper cannot forward (inalloca, preallocated, swift*)";
          return false;
        }
  return Why.empty();
}

/// What __ws_scale_spawn stores for the child: span, burdened span, and
/// their times (ws/scale_hooks.def).
constexpr unsigned AtWords = 4;

/// fn.ws.scale(args..., [fn,] spawner, at[0..3]): the spawned call
/// between task_begin and task_end.  Its parameters are the call's
/// arguments as passed (a variadic callee's too), with their attributes
/// (byval copies again, sret passes through).
Function *ScaleInstrumenter::wrapper(CallBase &Call, bool Indirect,
                                     Function &Spawner) {
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  AttributeList CallAttrs = Call.getAttributes();
  SmallVector<Type *, 8> Params;
  SmallVector<AttributeSet, 8> ParamAttrs;
  for (unsigned I = 0, E = Call.arg_size(); I != E; ++I) {
    Params.push_back(Call.getArgOperand(I)->getType());
    ParamAttrs.push_back(CallAttrs.getParamAttrs(I));
  }
  if (Indirect)
    Params.push_back(Ptr);
  Params.push_back(Ptr);
  Params.append(AtWords, I64);

  AttrBuilder FnAttrs(Ctx);
  FnAttrs.addAttribute(Attribute::AlwaysInline);
  if (Call.doesNotThrow())
    FnAttrs.addAttribute(Attribute::NoUnwind);
  for (const char *A : InheritedAttrs)
    if (Spawner.hasFnAttribute(A))
      FnAttrs.addAttribute(Spawner.getFnAttribute(A));

  const Function *Callee = Call.getCalledFunction();
  auto *W = Function::Create(
      FunctionType::get(Call.getType(), Params, false),
      GlobalValue::InternalLinkage,
      (Callee ? Callee->getName() : StringRef("indirect")) + ".ws.scale", M);
  W->setAttributes(AttributeList::get(
      Ctx, AttributeSet::get(Ctx, FnAttrs), CallAttrs.getRetAttrs(),
      ParamAttrs));

  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", W));
  unsigned N = Call.arg_size();
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I != N; ++I)
    Args.push_back(W->getArg(I));
  unsigned Extra = N + (Indirect ? 1 : 0);
  SmallVector<Value *, 1 + AtWords> BeginArgs;
  for (unsigned I = 0; I != 1 + AtWords; ++I)
    BeginArgs.push_back(W->getArg(Extra + I));
  Value *Task =
      B.CreateCall(hook(Hook::task_begin), BeginArgs, "ws.scale.task");
  Value *Target = Indirect ? W->getArg(N) : Call.getCalledOperand();
  CallInst *Inner = B.CreateCall(Call.getFunctionType(), Target, Args);
  Inner->setCallingConv(Call.getCallingConv());
  Inner->setAttributes(CallAttrs);
  B.CreateCall(hook(Hook::task_end), {Task});
  if (Inner->getType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Inner);
  return W;
}

/// A location in F for code the pass adds where no instruction gives one.
DebugLoc scopeLocation(const Function &F) {
  if (DISubprogram *SP = F.getSubprogram())
    return DILocation::get(F.getContext(), SP->getScopeLine(), 0, SP);
  return DebugLoc();
}

/// F's exits (returns and resumes) into Exits; false, with a warning, when
/// one returns through a musttail call (nothing can run after it).
bool ScaleInstrumenter::exitsOf(Function &F, SmallVectorImpl<Instruction *> &Exits) {
  for (BasicBlock &BB : F) {
    Instruction *T = BB.getTerminator();
    if (!isa<ReturnInst>(T) && !isa<ResumeInst>(T))
      continue;
    if (const auto *Prev = dyn_cast_or_null<CallInst>(T->getPrevNode());
        Prev && Prev->isMustTailCall()) {
      warnAt(*Prev, "not measuring " + F.getName() +
                        ": it returns through a musttail call, so nothing "
                        "can run at its exit");
      return false;
    }
    Exits.push_back(T);
  }
  return true;
}

/// One spawn: the spawn hook before its begin marker stores the spawning
/// frame's figures in At, and the spawned call becomes a call of its
/// wrapper with them.  False (with a warning where it is ours to give)
/// when the spawn is not measured.
bool ScaleInstrumenter::measureSpawn(CallInst *Begin, Function &F, AllocaInst *At) {
  CallBase *Call = spawnedCall(*Begin);
  if (!Call)
    return false; // not the macro's shape: ws-lower says what is wrong
  StringRef Why;
  if (!canWrap(*Call, Why)) {
    warnAt(*Call, "cannot measure this spawn (" + Why +
                      "): its child's work is missing from the figures");
    return false;
  }
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *AtTy = At->getAllocatedType();
  IRBuilder<> B(Begin);
  B.SetCurrentDebugLocation(Begin->getDebugLoc());
  Value *Spawner = B.CreateCall(hook(Hook::spawn), {At}, "ws.scale.spawner");
  static const char *const AtNames[AtWords] = {
      "ws.scale.span", "ws.scale.bspan", "ws.scale.tspan", "ws.scale.tbspan"};
  Value *AtValues[AtWords];
  for (unsigned I = 0; I != AtWords; ++I)
    AtValues[I] = B.CreateLoad(
        I64, B.CreateConstInBoundsGEP2_32(AtTy, At, 0, I), AtNames[I]);

  bool Indirect = !isa<Constant>(Call->getCalledOperand()->stripPointerCasts());
  Function *W = wrapper(*Call, Indirect, F);
  SmallVector<Value *, 8> Args(Call->args());
  if (Indirect)
    Args.push_back(Call->getCalledOperand());
  Args.push_back(Spawner);
  Args.append(std::begin(AtValues), std::end(AtValues));
  B.SetInsertPoint(Call);
  B.SetCurrentDebugLocation(Call->getDebugLoc());
  CallBase *New;
  if (auto *II = dyn_cast<InvokeInst>(Call))
    New = B.CreateInvoke(W, II->getNormalDest(), II->getUnwindDest(), Args);
  else
    New = B.CreateCall(W, Args);
  SmallVector<AttributeSet, 8> ParamAttrs;
  for (unsigned I = 0, E = Call->arg_size(); I != E; ++I)
    ParamAttrs.push_back(Call->getAttributes().getParamAttrs(I));
  New->setAttributes(AttributeList::get(
      Ctx, AttributeSet(), Call->getAttributes().getRetAttrs(), ParamAttrs));
  New->takeName(Call);
  New->copyMetadata(*Call);
  Call->replaceAllUsesWith(New);
  Call->eraseFromParent();
  Begin->setArgOperand(1, W);
  return true;
}

void ScaleInstrumenter::instrument(Function &F, ArrayRef<CallInst *> Begins) {
  SmallVector<Instruction *, 4> Exits;
  if (!exitsOf(F, Exits))
    return;
  SmallVector<CallBase *, 4> Syncs; // an invoke in a try block (C++)
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && isCallOf(*CB, SyncFn))
      Syncs.push_back(CB);

  // The frame at entry, after the allocas, and the words a spawn fills.
  Type *AtTy = ArrayType::get(Type::getInt64Ty(Ctx), AtWords);
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.begin());
  AllocaInst *At = B.CreateAlloca(AtTy, nullptr, "ws.scale.at");
  BasicBlock::iterator AfterAllocas = Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(*AfterAllocas))
    ++AfterAllocas;
  B.SetInsertPoint(&Entry, AfterAllocas);
  B.SetCurrentDebugLocation(scopeLocation(F));
  Value *Frame = B.CreateCall(hook(Hook::enter), {}, "ws.scale.frame");

  unsigned Spawns = 0;
  for (CallInst *Begin : Begins)
    Spawns += measureSpawn(Begin, F, At);

  // Each sync between the clock's stop and restart.
  for (CallBase *Sync : Syncs) {
    B.SetInsertPoint(Sync);
    B.SetCurrentDebugLocation(Sync->getDebugLoc());
    B.CreateCall(hook(Hook::sync_begin));
    if (auto *II = dyn_cast<InvokeInst>(Sync))
      B.SetInsertPoint(SplitEdge(II->getParent(), II->getNormalDest())->getTerminator());
    else
      B.SetInsertPoint(Sync->getNextNode());
    B.CreateCall(hook(Hook::sync_end));
  }

  // Each exit: the implicit sync, then the frame's end.
  FunctionCallee Sync = M.getOrInsertFunction(
      SyncName, FunctionType::get(Type::getVoidTy(Ctx), false));
  for (Instruction *Exit : Exits) {
    B.SetInsertPoint(Exit);
    B.SetCurrentDebugLocation(Exit->getDebugLoc() ? Exit->getDebugLoc()
                                                  : scopeLocation(F));
    B.CreateCall(hook(Hook::sync_begin));
    B.CreateCall(Sync);
    B.CreateCall(hook(Hook::leave), {Frame});
  }

  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(DEBUG_TYPE, "Instrumented", &F)
           << "ws-scale: measuring " << ore::NV("Spawns", Spawns)
           << " spawn(s), " << ore::NV("Syncs", unsigned(Syncs.size()))
           << " sync(s) and " << ore::NV("Exits", unsigned(Exits.size()))
           << " exit(s) of " << ore::NV("Function", F.getName());
  });
}

bool ScaleInstrumenter::run() {
  BeginFn = M.getFunction(SpawnBeginName);
  if (!BeginFn)
    return false;
  SyncFn = M.getFunction(SyncName);

  MapVector<Function *, SmallVector<CallInst *, 4>> Spawners;
  for (User *U : BeginFn->users())
    if (auto *CI = dyn_cast<CallInst>(U); CI && isCallOf(*CI, BeginFn))
      Spawners[CI->getFunction()].push_back(CI);
  if (Spawners.empty())
    return false;

  declareHooks();
  for (auto &[F, Begins] : Spawners)
    instrument(*F, Begins);
  return true;
}

} // namespace

PreservedAnalyses ScaleInstrumentPass::run(Module &M,
                                           ModuleAnalysisManager &) {
  return ScaleInstrumenter(M).run() ? PreservedAnalyses::none()
                                    : PreservedAnalyses::all();
}

void registerScalePasses(PassBuilder &PB, const WsOptions &Opts) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "ws-scale")
          return false;
        MPM.addPass(ScaleInstrumentPass());
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        // ws-scale-count: -fws-scale=instructions's mark (1);
        // ws-scale-count<timed>: -fws-scale's (2).
        if (Name != "ws-scale-count")
          return false;
        MPM.addPass(ScaleCountPass(1));
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "ws-scale-count<timed>")
          return false;
        MPM.addPass(ScaleCountPass(2));
        return true;
      });
  if (Opts.Scale.empty())
    return;
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ScaleInstrumentPass());
      });
  if (Opts.Scale == "time")
    return;
  // -fws-scale (on): counts and a time clock; -fws-scale=instructions: counts.
  int Mark = Opts.Scale == "instructions" ? 1 : 2;
  PB.registerOptimizerLastEPCallback(
      [Mark](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ScaleCountPass(Mark));
      });
}

} // namespace wsff
