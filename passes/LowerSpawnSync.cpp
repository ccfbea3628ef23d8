//===- LowerSpawnSync.cpp - ws-lower: spawns and syncs onto the runtime --===//

#include "LowerSpawnSync.h"

#include "AbiLinker.h"
#include "AbiNames.h"
#include "DeltaRecord.h"
#include "Diagnose.h"
#include "SpawnRegion.h"

#include "ws/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "ws-lower"

using namespace llvm;

namespace wsff {
namespace {

/// The runtime entry points, declared in the module.
struct Runtime {
  FunctionCallee Self, Push, Take, JoinStolen;
};

/// Outstanding spawns at a program point: a known sequence of spawn sites,
/// or unknown (differs between paths, or unbounded).
struct SpawnStack {
  enum Kind { Unreached, Known, Unknown } K = Unreached;
  SmallVector<unsigned, 4> Sites;

  bool operator==(const SpawnStack &O) const {
    return K == O.K && (K != Known || Sites == O.Sites);
  }
  void join(const SpawnStack &O) {
    if (O.K == Unreached || K == Unknown)
      return;
    if (K == Unreached || O.K == Unknown)
      *this = O;
    else if (Sites != O.Sites)
      K = Unknown, Sites.clear();
  }
};

class FunctionLowering {
public:
  FunctionLowering(Function &F, const Runtime &RT) : F(F), RT(RT) {}
  bool run();

private:
  bool collect();
  void analyzeStacks();
  void markCyclicSites();
  Value *worker();
  DebugLoc locationFor(Instruction *At) const;
  void lowerStatic(Instruction *At, ArrayRef<unsigned> Stack);
  void lowerDynamic(Instruction *At);

  Function &F;
  const Runtime &RT;
  SmallVector<SpawnSite, 4> Sites;
  /// A task is pushed at its end marker: only from there is it outstanding
  /// (an exception among the arguments unwinds before the spawn).
  DenseMap<Instruction *, unsigned> SiteOfEnd;
  SmallVector<CallInst *, 4> Syncs;
  /// Sync points (explicit syncs, returns, resumes) and their stacks.
  SmallVector<std::pair<Instruction *, SpawnStack>, 8> SyncPoints;
  bool Dynamic = false;
  Value *W = nullptr;
  /// Dynamic functions: the most recent outstanding descriptor (the chain).
  AllocaInst *Last = nullptr;
  Value *SavedStack = nullptr;
};

bool FunctionLowering::collect() {
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    Function *Callee = CB ? CB->getCalledFunction() : nullptr;
    if (!Callee)
      continue;
    if (Callee->getName() == SpawnBeginName) {
      SpawnSite S;
      S.Index = Sites.size();
      S.Begin = cast<CallInst>(CB);
      Sites.push_back(S);
    } else if (Callee->getName() == SyncName) {
      Syncs.push_back(cast<CallInst>(CB));
    }
  }
  bool OK = true;
  for (SpawnSite &S : Sites)
    OK &= findSpawnRegion(S);
  if (!OK)
    return false;
  // Paths from two begins may meet before one end: one call, two spawns.
  for (const SpawnSite &S : Sites)
    if (!SiteOfEnd.try_emplace(S.End, S.Index).second) {
      errorAt(*S.Begin, "malformed ws_spawn: its __ws_spawn_end also ends "
                        "another spawn (use the ws_spawn macro of <ws/ws.h>)");
      return false;
    }
  return true;
}

/// Forward dataflow over the CFG: the sequence of outstanding spawns.
void FunctionLowering::analyzeStacks() {
  DenseMap<BasicBlock *, SpawnStack> In;
  auto Transfer = [&](BasicBlock &BB, SpawnStack St, bool Record) {
    for (Instruction &I : BB) {
      auto It = SiteOfEnd.find(&I);
      if (It != SiteOfEnd.end()) {
        if (St.K == SpawnStack::Known)
          St.Sites.push_back(It->second);
      } else if (is_contained(Syncs, &I)) {
        if (Record)
          SyncPoints.push_back({&I, St});
        if (St.K != SpawnStack::Unreached)
          St = SpawnStack{SpawnStack::Known, {}};
      } else if (isa<ReturnInst>(I) || isa<ResumeInst>(I)) {
        if (Record)
          SyncPoints.push_back({&I, St});
      }
    }
    return St;
  };
  ReversePostOrderTraversal<Function *> RPO(&F);
  In[&F.getEntryBlock()] = SpawnStack{SpawnStack::Known, {}};
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : RPO) {
      SpawnStack Out = Transfer(*BB, In[BB], false);
      for (BasicBlock *Succ : successors(BB)) {
        SpawnStack Joined = In[Succ];
        Joined.join(Out);
        if (!(Joined == In[Succ])) {
          In[Succ] = Joined;
          Changed = true;
        }
      }
    }
  }
  for (BasicBlock *BB : RPO)
    Transfer(*BB, In[BB], true);
  for (auto &[At, St] : SyncPoints)
    Dynamic |= St.K == SpawnStack::Unknown;
}

/// In a dynamic function a spawn inside a cycle needs a fresh descriptor
/// each time round.
void FunctionLowering::markCyclicSites() {
  for (scc_iterator<Function *> It = scc_begin(&F); !It.isAtEnd(); ++It) {
    const std::vector<BasicBlock *> &SCC = *It;
    if (!It.hasCycle())
      continue;
    for (BasicBlock *BB : SCC)
      for (Instruction &I : *BB) {
        auto Site = SiteOfEnd.find(&I);
        if (Site != SiteOfEnd.end())
          Sites[Site->second].DynamicDesc = true;
      }
  }
}

DebugLoc FunctionLowering::locationFor(Instruction *At) const {
  if (At && At->getDebugLoc())
    return At->getDebugLoc();
  if (DISubprogram *SP = F.getSubprogram())
    return DILocation::get(F.getContext(), SP->getLine(), 0, SP);
  return DebugLoc();
}

/// The current worker, looked up once per invocation where it is first
/// needed: in a static function at the nearest common dominator of the
/// spawns (fib's leaves never pay for it), else at entry.
Value *FunctionLowering::worker() {
  if (W)
    return W;
  BasicBlock *At = &F.getEntryBlock();
  if (!Dynamic) {
    // Spawns no path reaches (dead code, or a landing pad whose invoke
    // became a call) are left out: they have no dominator.
    DominatorTree DT(F);
    BasicBlock *Common = nullptr;
    for (const SpawnSite &S : Sites)
      if (DT.isReachableFromEntry(S.Begin->getParent()))
        Common = Common ? DT.findNearestCommonDominator(Common, S.Begin->getParent())
                        : S.Begin->getParent();
    if (Common)
      At = Common;
  }
  IRBuilder<> B(At, At == &F.getEntryBlock() ? At->getFirstNonPHIOrDbgOrAlloca()
                                              : At->getFirstInsertionPt());
  B.SetCurrentDebugLocation(locationFor(Sites.front().Begin));
  W = B.CreateCall(RT.Self, {}, "ws.worker");
  return W;
}

static MDNode *unlikelyStolen(LLVMContext &Ctx) {
  return MDBuilder(Ctx).createBranchWeights(1, 1 << 20);
}

static Value *isStolen(IRBuilderBase &B, Value *Taken) {
  Value *Bits = B.CreatePtrToInt(Taken, B.getInt64Ty());
  return B.CreateICmpNE(B.CreateAnd(Bits, WS_TAKE_STOLEN), B.getInt64(0),
                        "ws.is.stolen");
}

static CallInst *emitTake(IRBuilderBase &B, const Runtime &RT, Value *W) {
  CallInst *Take = B.CreateCall(RT.Take, {W}, "ws.taken");
  Take->setMetadata(TakeSiteMD, MDNode::get(B.getContext(), {}));
  return Take;
}

/// Take back each spawn of Stack, most recent first, before At.
void FunctionLowering::lowerStatic(Instruction *At, ArrayRef<unsigned> Stack) {
  LLVMContext &Ctx = F.getContext();
  for (unsigned Idx : llvm::reverse(Stack)) {
    SpawnSite &S = Sites[Idx];
    BasicBlock *Pre = At->getParent();
    BasicBlock *Cont = SplitBlock(Pre, At, static_cast<DominatorTree *>(nullptr),
                                  nullptr, nullptr, "ws.synced");
    Pre->getTerminator()->eraseFromParent();
    BasicBlock *Run = BasicBlock::Create(Ctx, "ws.run", &F, Cont);
    BasicBlock *Stolen = BasicBlock::Create(Ctx, "ws.stolen", &F, Cont);
    IRBuilder<> B(Pre);
    B.SetCurrentDebugLocation(locationFor(At));
    Value *Taken = emitTake(B, RT, W);
    B.CreateCondBr(isStolen(B, Taken), Stolen, Run, unlikelyStolen(Ctx));
    B.SetInsertPoint(Run);
    B.CreateCall(S.Body, bodyArguments(S, S.Desc, /*LoadFromDesc=*/false, B));
    B.CreateBr(Cont);
    B.SetInsertPoint(Stolen);
    B.CreateCall(RT.JoinStolen, {W, S.Desc});
    B.CreateBr(Cont);
  }
}

/// Pop until no spawn of this invocation is outstanding, before At.  The
/// descriptors form a chain, most recent first: a take after a steal says
/// "stolen" but (THE, Chase-Lev) not which slot, so the chain says which.
void FunctionLowering::lowerDynamic(Instruction *At) {
  LLVMContext &Ctx = F.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  BasicBlock *Pre = At->getParent();
  BasicBlock *Cont = SplitBlock(Pre, At, static_cast<DominatorTree *>(nullptr),
                                nullptr, nullptr, "ws.synced");
  auto *Head = BasicBlock::Create(Ctx, "ws.sync", &F, Cont);
  auto *Pop = BasicBlock::Create(Ctx, "ws.pop", &F, Cont);
  auto *Stolen = BasicBlock::Create(Ctx, "ws.stolen", &F, Cont);
  auto *Done = BasicBlock::Create(Ctx, "ws.drained", &F, Cont);
  Pre->getTerminator()->setSuccessor(0, Head);
  DebugLoc DL = locationFor(At);

  IRBuilder<> B(Head);
  B.SetCurrentDebugLocation(DL);
  Value *Desc = B.CreateLoad(Ptr, Last, "ws.desc");
  B.CreateCondBr(B.CreateIsNull(Desc), Done, Pop);

  // Every chained descriptor type has the link in the same field.
  B.SetInsertPoint(Pop);
  B.CreateStore(B.CreateLoad(Ptr, B.CreateStructGEP(Sites.front().DescTy, Desc,
                                                    SpawnSite::PrevField)),
                Last);
  Value *Taken = emitTake(B, RT, W);
  BasicBlock *Dispatch = BasicBlock::Create(Ctx, "ws.run", &F, Stolen);
  B.CreateCondBr(isStolen(B, Taken), Stolen, Dispatch, unlikelyStolen(Ctx));

  B.SetInsertPoint(Stolen);
  B.CreateCall(RT.JoinStolen, {W, Desc});
  B.CreateBr(Head);

  // Which spawn was it?  Compare the thunk in its header.
  B.SetInsertPoint(Dispatch);
  Value *Thunk = Sites.size() > 1 ? B.CreateLoad(Ptr, Desc, "ws.thunk") : nullptr;
  for (unsigned I = 0; I < Sites.size(); ++I) {
    SpawnSite &S = Sites[I];
    BasicBlock *RunSite = BasicBlock::Create(Ctx, "ws.run." + Twine(I), &F, Stolen);
    if (I + 1 < Sites.size()) {
      BasicBlock *Next = BasicBlock::Create(Ctx, "ws.dispatch", &F, Stolen);
      B.CreateCondBr(B.CreateICmpEQ(Thunk, S.Thunk), RunSite, Next);
      B.SetInsertPoint(Next);
    } else {
      B.CreateBr(RunSite);
    }
    IRBuilder<> R(RunSite);
    R.SetCurrentDebugLocation(DL);
    R.CreateCall(S.Body, bodyArguments(S, Desc, /*LoadFromDesc=*/true, R));
    R.CreateBr(Head);
  }

  B.SetInsertPoint(Done);
  if (SavedStack)
    B.CreateStackRestore(SavedStack);
  B.CreateBr(Cont);
}

/// Does F allocate on the stack dynamically, apart from our descriptors?
static bool hasOwnDynamicStack(Function &F) {
  for (Instruction &I : instructions(F)) {
    if (auto *A = dyn_cast<AllocaInst>(&I))
      if (!A->isStaticAlloca())
        return true;
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::stacksave ||
          II->getIntrinsicID() == Intrinsic::stackrestore)
        return true;
  }
  return false;
}

bool FunctionLowering::run() {
  if (!collect())
    return false;
  analyzeStacks();
  if (Dynamic) {
    markCyclicSites();
    for (SpawnSite &S : Sites)
      S.Chained = true;
  }
  bool OwnDynamicStack = hasOwnDynamicStack(F);
  for (SpawnSite &S : Sites)
    if (!outlineSpawn(S))
      return false;
  for (SpawnSite &S : Sites)
    removeTask(S);

  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> AB(&Entry, Entry.begin());
  for (SpawnSite &S : Sites)
    if (!S.DynamicDesc) {
      S.Desc = AB.CreateAlloca(S.DescTy, nullptr, "ws.desc");
      S.Desc->setAlignment(Align(16));
    }
  if (Dynamic) {
    Last = AB.CreateAlloca(AB.getPtrTy(), nullptr, "ws.last.addr");
    IRBuilder<> IB(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
    IB.CreateStore(ConstantPointerNull::get(IB.getPtrTy()), Last);
    bool AnyCyclic = any_of(Sites, [](const SpawnSite &S) { return S.DynamicDesc; });
    if (AnyCyclic && !OwnDynamicStack)
      SavedStack = IB.CreateStackSave("ws.stack");
  }
  if (!Sites.empty())
    worker();
  for (SpawnSite &S : Sites)
    emitSpawn(S, W, RT.Push, Last);
  for (auto &[At, St] : SyncPoints) {
    if (St.K == SpawnStack::Unreached ||
        (St.K == SpawnStack::Known && St.Sites.empty()))
      continue;
    if (Dynamic)
      lowerDynamic(At);
    else if (!St.Sites.empty())
      lowerStatic(At, St.Sites);
  }
  for (CallInst *Sync : Syncs)
    Sync->eraseFromParent();
  if (!Sites.empty())
    dropAttributesTheRuntimeBreaks(F);
  return true;
}

/// The markers must be the declarations of <ws/ws.h>, and only called.
bool checkBuiltin(Module &M, StringRef Name, FunctionType *Expected) {
  Function *Fn = M.getFunction(Name);
  if (!Fn)
    return true;
  auto Complain = [&](const Twine &Msg) {
    for (User *U : Fn->users())
      if (auto *I = dyn_cast<Instruction>(U)) {
        errorAt(*I, Msg);
        return false;
      }
    error(M.getContext(), Msg);
    return false;
  };
  if (!Fn->isDeclaration())
    return Complain(Name + " is reserved for the ws builtins of <ws/ws.h> and "
                           "must not be defined");
  if (Fn->getFunctionType() != Expected) {
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
  for (InvokeInst *II : Invokes)
    changeToCall(II);
  return true;
}

bool declareRuntime(Module &M, const WsOptions &Opts, Runtime &RT) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
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
  RT.Self = Get(SelfName, FunctionType::get(Ptr, false));
  RT.Push = Get(pushName(Opts.Variant), FunctionType::get(Void, {Ptr, Ptr}, false));
  RT.Take = Get(takeName(Opts.Variant), FunctionType::get(Ptr, {Ptr}, false));
  // Joining runs other tasks: it is not nounwind.
  RT.JoinStolen = Get(JoinStolenName, FunctionType::get(Void, {Ptr, Ptr}, false),
                      /*NoUnwind=*/false);
  return OK;
}

} // namespace

PreservedAnalyses LowerSpawnSyncPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  bool OK = checkBuiltin(M, SpawnBeginName, FunctionType::get(Void, {Ptr}, true));
  OK &= checkBuiltin(M, SpawnEndName, FunctionType::get(Void, false));
  OK &= checkBuiltin(M, SyncName, FunctionType::get(Void, false));
  if (!OK)
    return PreservedAnalyses::all();

  SmallVector<Function *, 8> Spawning;
  for (StringRef Name : {SpawnBeginName, SyncName})
    if (Function *Fn = M.getFunction(Name))
      for (User *U : Fn->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          if (!is_contained(Spawning, CB->getFunction()))
            Spawning.push_back(CB->getFunction());
  if (Spawning.empty())
    return PreservedAnalyses::all();

  Runtime RT;
  if (!declareRuntime(M, Opts, RT))
    return PreservedAnalyses::all();
  for (Function *F : Spawning)
    FunctionLowering(*F, RT).run();

  for (StringRef Name : {SpawnBeginName, SpawnEndName, SyncName})
    if (Function *Fn = M.getFunction(Name))
      if (Fn->use_empty())
        Fn->eraseFromParent();

  // Later passes find the variant here (the record, the store count).
  M.getOrInsertNamedMetadata("ws.variant")
      ->addOperand(MDNode::get(Ctx, MDString::get(Ctx, Opts.Variant)));
  ensureRecord(M, Opts);
  if (Opts.InlineAbi)
    linkAbiFastPaths(M, Opts);
  return PreservedAnalyses::none();
}

} // namespace wsff
