//===- OmpTasks.cpp - OpenMP tasks a function waits for, as spawns --------===//

#include "OmpTasks.h"

#include "AbiNames.h"
#include "FunctionLowering.h"
#include "OmpBlockValues.h"
#include "SpawnCall.h"

#include "ws/omp_abi.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace wsff {
namespace {

constexpr StringLiteral TaskAllocName = "__kmpc_omp_task_alloc";
constexpr StringLiteral TaskName = "__kmpc_omp_task";
constexpr StringLiteral GlobalThreadNumName = "__ws_omp_global_thread_num";
constexpr StringLiteral KmpGlobalThreadNumName = "__kmpc_global_thread_num";
constexpr StringLiteral TaskwaitName = "__ws_omp_taskwait";
constexpr StringLiteral KmpTaskwaitName = "__kmpc_omp_taskwait";
constexpr StringLiteral TaskBeginName = "__ws_omp_task_begin";
constexpr StringLiteral TaskEndName = "__ws_omp_task_end";
constexpr StringLiteral CtxInitName = "__ws_omp_task_ctx_init";
constexpr StringLiteral FreeBeginName = "__ws_omp_free_task_begin";
constexpr StringLiteral FreeEndName = "__ws_omp_free_task_end";
constexpr StringLiteral CurrentTaskName = "__ws_omp_current_task";

/// The runtime calls at which every task the current task created before
/// must be complete (ws/omp_abi.h, rule 3): a ws_sync goes before each.
bool isWaitPoint(const CallBase &CB) {
  const Function *Fn = CB.getCalledFunction();
  return Fn && is_contained({StringRef(KmpTaskwaitName), StringRef(TaskwaitName),
                             StringRef("__kmpc_barrier"),
                             StringRef("__kmpc_cancel_barrier"),
                             StringRef("__kmpc_end_taskgroup"), StringRef("__kmpc_end_reduce"),
                             StringRef("__kmpc_copyprivate")},
                            Fn->getName());
}

/// A site in a loop: its blocks since the last wait take at most this
/// much of the stack (LoopStackBudget / block size outstanding, the others
/// run at once), and a block larger than MaxLoopBlock is not put there.
constexpr uint64_t LoopStackBudget = 256 * 1024, MaxLoopBlock = 2048;

// kmp_task_t, as clang lays it out: shareds, routine, part_id.
constexpr uint64_t SharedsOffset = 0, PartIdOffset = 16; // the routine at 8

/// One `#pragma omp task` site of a function.
struct Site {
  CallInst *Alloc;  ///< __kmpc_omp_task_alloc
  CallInst *Launch; ///< __kmpc_omp_task of its task
  Function *Entry;  ///< .omp_task_entry.
  uint64_t TaskSize, SharedsSize;
  uint32_t Flags; ///< 1: tied; 0: untied
  bool InCycle;
  /// No code the task runs asks the runtime about its task
  /// (contextSensitive): it needs no context of its own.
  bool ContextFree = false;
};

/// The layout of a site's block in the creating frame: the task (what
/// task_alloc returned), the context (ws/omp_abi.h), the shareds.
struct Block {
  uint64_t Ctx, Shareds, Size;
  explicit Block(const Site &S) {
    Ctx = alignTo(S.TaskSize, 16);
    Shareds = Ctx + alignTo(WS_OMP_TASK_CTX_SIZE, 16);
    Size = Shareds + std::max<uint64_t>(S.SharedsSize, 1);
  }
};

/// The sites of F a fast path may take: allocation and launch only, with
/// flags tied or untied, constant sizes, a known entry.
SmallVector<Site, 4> candidateSites(Function &F) {
  SmallVector<Site, 4> Sites;
  SmallPtrSet<BasicBlock *, 16> Cyclic;
  for (scc_iterator<Function *> It = scc_begin(&F); !It.isAtEnd(); ++It)
    if (It.hasCycle())
      for (BasicBlock *BB : *It)
        Cyclic.insert(BB);
  for (Instruction &I : instructions(F)) {
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || !isCallTo(*CI, TaskAllocName) || CI->arg_size() != 6)
      continue;
    auto *Flags = dyn_cast<ConstantInt>(CI->getArgOperand(2));
    auto *TaskSize = dyn_cast<ConstantInt>(CI->getArgOperand(3));
    auto *SharedsSize = dyn_cast<ConstantInt>(CI->getArgOperand(4));
    auto *Entry = dyn_cast<Function>(CI->getArgOperand(5)->stripPointerCasts());
    if (!Flags || (Flags->getZExtValue() & ~1ull) || !TaskSize || !SharedsSize || !Entry ||
        Entry->isDeclaration() || Entry->arg_size() != 2 ||
        TaskSize->getZExtValue() < PartIdOffset + 4)
      continue;
    // Its uses: the launch once, and plain reads and writes of its data.
    CallInst *Launch = nullptr;
    bool Plain = true;
    SmallVector<Value *, 8> Work{CI};
    SmallPtrSet<Value *, 8> Seen{CI};
    while (!Work.empty() && Plain) {
      Value *V = Work.pop_back_val();
      for (User *U : V->users()) {
        if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U)) {
          if (Seen.insert(U).second)
            Work.push_back(U);
        } else if (auto *L = dyn_cast<LoadInst>(U)) {
          Plain = L->getPointerOperand() == V;
        } else if (auto *St = dyn_cast<StoreInst>(U)) {
          Plain = St->getPointerOperand() == V;
        } else if (isa<MemIntrinsic>(U) || isa<DbgInfoIntrinsic>(U)) {
          continue;
        } else if (auto *Call = dyn_cast<CallInst>(U);
                   Call && V == CI && isCallTo(*Call, TaskName) && Call->arg_size() == 3 &&
                   Call->getArgOperand(2) == CI && !Launch) {
          Launch = Call;
        } else {
          Plain = false;
        }
      }
    }
    if (!Plain || !Launch)
      continue;
    Sites.push_back({CI, Launch, Entry, TaskSize->getZExtValue(), SharedsSize->getZExtValue(),
                     uint32_t(Flags->getZExtValue()), Cyclic.count(CI->getParent()) > 0});
  }
  return Sites;
}

/// Drops the sites that some path leaves F with outstanding (their task
/// outlives the function: the general path), a forward may-dataflow of
/// the launched, not yet waited-for sites.
void dropUnwaited(Function &F, SmallVectorImpl<Site> &Sites) {
  unsigned N = Sites.size();
  DenseMap<const Instruction *, unsigned> LaunchOf;
  for (unsigned I = 0; I < N; ++I)
    LaunchOf[Sites[I].Launch] = I;
  auto Transfer = [&](Instruction &I, BitVector &St) {
    if (auto It = LaunchOf.find(&I); It != LaunchOf.end())
      St.set(It->second);
    else if (auto *CB = dyn_cast<CallBase>(&I); CB && isWaitPoint(*CB))
      St.reset();
  };
  DenseMap<BasicBlock *, BitVector> In;
  ReversePostOrderTraversal<Function *> RPO(&F);
  In[&F.getEntryBlock()] = BitVector(N);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : RPO) {
      auto It = In.find(BB);
      if (It == In.end())
        continue;
      BitVector St = It->second;
      for (Instruction &I : *BB)
        Transfer(I, St);
      for (BasicBlock *Succ : successors(BB)) {
        auto [S, New] = In.try_emplace(Succ, BitVector(N));
        BitVector Joined = S->second;
        Joined |= St;
        if (New || Joined != S->second) {
          S->second = Joined;
          Changed = true;
        }
      }
    }
  }
  BitVector Escaping(N);
  for (auto &[BB, St0] : In) {
    BitVector St = St0;
    for (Instruction &I : *BB)
      Transfer(I, St);
    if (isa<ReturnInst>(BB->getTerminator()) || isa<ResumeInst>(BB->getTerminator()))
      Escaping |= St;
  }
  SmallVector<Site, 4> Kept;
  for (unsigned I = 0; I < N; ++I)
    if (!Escaping.test(I))
      Kept.push_back(Sites[I]);
  Sites.assign(Kept.begin(), Kept.end());
}

/// The runtime's side of the contract (ws/omp_abi.h).
struct OmpAbi {
  GlobalVariable *Current;
  FunctionCallee Begin, End, GlobalThreadNum, Taskwait, CtxInit, FreeBegin, FreeEnd;
  explicit OmpAbi(Module &M) {
    LLVMContext &Ctx = M.getContext();
    Type *Ptr = PointerType::getUnqual(Ctx), *Void = Type::getVoidTy(Ctx);
    Current = M.getGlobalVariable(CurrentTaskName);
    if (!Current)
      Current = new GlobalVariable(M, Ptr, false, GlobalValue::ExternalLinkage, nullptr,
                                   CurrentTaskName, nullptr,
                                   GlobalValue::InitialExecTLSModel);
    Begin = M.getOrInsertFunction(TaskBeginName, Void, Ptr);
    End = M.getOrInsertFunction(TaskEndName, Void, Ptr);
    GlobalThreadNum =
        M.getOrInsertFunction(GlobalThreadNumName, Type::getInt32Ty(Ctx), Ptr);
    Type *I32 = Type::getInt32Ty(Ctx);
    Taskwait = M.getOrInsertFunction(TaskwaitName, I32, Ptr, I32);
    CtxInit = M.getOrInsertFunction(CtxInitName, Void, Ptr, I32);
    FreeBegin = M.getOrInsertFunction(FreeBeginName, I32, Ptr);
    FreeEnd = M.getOrInsertFunction(FreeEndName, Void, Ptr, I32);
  }
};

/// In a function the fast path lowered (linked with libws, then), the gtid
/// and the taskwait become wsff's own names for them, which the pass
/// inlines from ws-abi.bc (runtime/src/omp/fast.c); libomp's names stay
/// libomp's.
void useOwnEntries(Function &F, const OmpAbi &Abi) {
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if ((isCallTo(*CI, KmpGlobalThreadNumName) && CI->arg_size() == 1 &&
           CI->getType()->isIntegerTy(32)) ||
          (isCallTo(*CI, KmpTaskwaitName) && CI->arg_size() == 2 &&
           CI->getType()->isIntegerTy(32)))
        Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    bool Gtid = CI->arg_size() == 1;
    CI->setCalledFunction(Gtid ? Abi.GlobalThreadNum : Abi.Taskwait);
    CI->setAttributes(AttributeList());
  }
  // __ws_omp_taskwait ignores its gtid: a gtid only taskwaits read (the
  // task_alloc calls that read it are gone) is not asked for.  Its call at
  // the entry would come before the function's leaf test, which
  // ws-leafsplit then cannot move into the callers.
  for (CallInst *CI : Calls) {
    if (CI->arg_size() != 1)
      continue;
    bool OnlyTaskwaits = all_of(CI->users(), [](User *U) {
      auto *W = dyn_cast<CallInst>(U);
      return W && isCallTo(*W, TaskwaitName) && W->getArgOperand(0) != U;
    });
    if (!OnlyTaskwaits)
      continue;
    CI->replaceAllUsesWith(ConstantInt::get(CI->getType(), 0));
    CI->eraseFromParent();
  }
}

/// The body's variables in registers (clang's -O0 form, which ws-lower
/// sees): the entry calls the privates map through one, and the call is
/// then direct, to be inlined like the rest; the body then makes no call
/// the module cannot see (ViewReach.h: no reducer check where it is run
/// at a sync).
void promoteVariables(Function &Body) {
  SmallVector<AllocaInst *, 8> Promotable;
  for (Instruction &I : Body.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I); A && isAllocaPromotable(A))
      Promotable.push_back(A);
  if (Promotable.empty())
    return;
  DominatorTree DT(Body);
  PromoteMemToReg(Promotable, DT);
}

/// The task's code in its body: the entry inlined, and in turn what it
/// calls that clang marked always_inline (the outlined task).  Its calls
/// of spawning functions are then the body's, and the body is cloned by
/// ws-lower (OmpTaskBodyAttr): a task is given its tail, and gives it to
/// them, instead of their entry points finding it (two thread-local loads
/// and tests per task).
void inlineTaskCode(Function &Body, CallInst &Code) {
  InlineFunctionInfo IFI;
  if (!InlineFunction(Code, IFI).isSuccess())
    return; // the entry stays a call: its calls find their tail
  SmallPtrSet<CallBase *, 4> Failed;
  for (unsigned Budget = 16; Budget; --Budget) {
    promoteVariables(Body);
    CallBase *Next = nullptr;
    for (Instruction &I : instructions(Body))
      if (auto *Call = dyn_cast<CallBase>(&I); Call && !Failed.count(Call))
        if (Function *Fn = Call->getCalledFunction();
            Fn && !Fn->isDeclaration() && Fn->hasLocalLinkage() &&
            Fn->hasFnAttribute(Attribute::AlwaysInline) && Fn != &Body) {
          Next = Call;
          break;
        }
    if (!Next)
      break;
    InlineFunctionInfo Info;
    if (!InlineFunction(*Next, Info).isSuccess())
      Failed.insert(Next);
  }
  promoteVariables(Body);
  Body.addFnAttr(OmpTaskBodyAttr);
}

/// A new body for Entry's task, Name(Params): internal, always inlined, with
/// the entry's target attributes; B at its entry.  With debug info it is an
/// artificial function of the entry's unit and its calls have lines: the
/// entry is inlined into it, and a call without a location would leave the
/// entry's code in the wrong scope (the verifier's "wrong subprogram", a
/// crash in DwarfDebug).
Function *newBody(Function &Entry, const Twine &Name, ArrayRef<Type *> Params,
                  IRBuilder<> &B) {
  Module &M = *Entry.getParent();
  LLVMContext &Ctx = M.getContext();
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), Params, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::AlwaysInline);
  F->addFnAttr(Attribute::NoUnwind);
  for (StringRef A : {"target-cpu", "target-features", "tune-cpu"})
    if (Entry.hasFnAttribute(A))
      F->addFnAttr(Entry.getFnAttribute(A));
  B.SetInsertPoint(BasicBlock::Create(Ctx, "entry", F));
  if (DISubprogram *EntrySP = Entry.getSubprogram()) {
    DIBuilder DIB(M, /*AllowUnresolved=*/false, EntrySP->getUnit());
    StringRef N = F->getName();
    DISubprogram *SP = DIB.createFunction(
        EntrySP->getFile(), N, N, EntrySP->getFile(), EntrySP->getLine(),
        DIB.createSubroutineType(DIB.getOrCreateTypeArray({})), EntrySP->getLine(),
        DINode::FlagArtificial,
        DISubprogram::SPFlagDefinition | DISubprogram::SPFlagLocalToUnit |
            (EntrySP->isOptimized() ? DISubprogram::SPFlagOptimized
                                    : DISubprogram::SPFlagZero));
    F->setSubprogram(SP);
    DIB.finalizeSubprogram(SP);
    B.SetCurrentDebugLocation(DILocation::get(Ctx, EntrySP->getLine(), 0, SP));
  }
  return F;
}

/// A context-free task's code between __ws_omp_free_task_begin and _end
/// (rule 6: it runs in whatever task is current where it runs, and takes
/// a context of its own, CtxArg, only where that task has queued
/// children); its entry is given gtid 0, which its code gives only to
/// entry points that ignore it (the taskwait; the allocation and launch of
/// its fast-path tasks).
void runFree(IRBuilder<> &B, Function &Entry, Value *CtxArg, Value *TaskArg,
             const OmpAbi &Abi) {
  Function *F = B.GetInsertBlock()->getParent();
  Value *Own = B.CreateCall(Abi.FreeBegin, {CtxArg}, "ws.omp.own");
  Type *GtidTy = Entry.getFunctionType()->getParamType(0);
  CallInst *Code = B.CreateCall(&Entry, {Constant::getNullValue(GtidTy), TaskArg});
  B.CreateCall(Abi.FreeEnd, {CtxArg, Own});
  B.CreateRetVoid();
  inlineTaskCode(*F, *Code);
}

/// ws.omp.task.<entry>(task): the task's body, on whichever worker
/// runs it, between __ws_omp_task_begin and _end.  A context-free task's,
/// ws.omp.freetask.<entry>, runs as runFree says.
Function *taskBody(Function &Entry, uint64_t CtxOffset, Value *Loc, const OmpAbi &Abi,
                   bool ContextFree) {
  Module &M = *Entry.getParent();
  std::string Name =
      ((ContextFree ? "ws.omp.freetask." : "ws.omp.task.") + Entry.getName()).str();
  if (Function *F = M.getFunction(Name))
    return F;
  IRBuilder<> B(M.getContext());
  Function *F = newBody(Entry, Name, {PointerType::getUnqual(M.getContext())}, B);
  // The task's block; its context at a constant offset in it (a spawn
  // argument less to store and load).
  Value *TaskArg = F->getArg(0);
  Value *CtxArg = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), TaskArg, CtxOffset, "ws.omp.ctx");
  if (ContextFree) {
    runFree(B, Entry, CtxArg, TaskArg, Abi);
    return F;
  }
  Type *GtidTy = Entry.getFunctionType()->getParamType(0);
  Value *Gtid = B.CreateCall(Abi.GlobalThreadNum, {Loc});
  B.CreateCall(Abi.Begin, {CtxArg});
  Value *GtidArg = B.CreateZExtOrTrunc(Gtid, GtidTy);
  B.CreateCall(&Entry, {GtidArg, TaskArg});
  B.CreateCall(Abi.End, {CtxArg});
  B.CreateRetVoid();
  return F;
}

/// ws.omp.valuetask.<entry>(words...): a context-free task given the words
/// its creator wrote into its block (OmpBlockValues.h), which it writes
/// into a block of its own; its context, where it needs one, beside it.
Function *valueBody(Function &Entry, uint64_t BlockSize, const BlockValues &V,
                    const OmpAbi &Abi) {
  static constexpr StringLiteral Prefix = "ws.omp.valuetask.";
  Module &M = *Entry.getParent();
  // One per site: clang gives each task construct an entry of its own.
  IRBuilder<> B(M.getContext());
  Function *F = newBody(Entry, Prefix + Entry.getName(), V.argTypes(), B);
  AllocaInst *Block =
      B.CreateAlloca(ArrayType::get(B.getInt8Ty(), BlockSize), nullptr, "ws.omp.task");
  Block->setAlignment(Align(16));
  AllocaInst *Ctx = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), WS_OMP_TASK_CTX_SIZE),
                                   nullptr, "ws.omp.ctx");
  Ctx->setAlignment(Align(16));
  SmallVector<Value *, 6> Args;
  for (Argument &A : F->args())
    Args.push_back(&A);
  V.store(B, Block, Args);
  runFree(B, Entry, Ctx, Block, Abi);
  return F;
}

/// The creator reads the shareds pointer back from the block to write the
/// shareds through it: those loads become the pointer itself, so that the
/// shareds' writes are seen as the block's (BlockValues), unless something
/// else may write the word.
void forwardShareds(AllocaInst &Task, Value *Shareds, StoreInst &Own) {
  const DataLayout &DL = Task.getModule()->getDataLayout();
  uint64_t End = SharedsOffset + DL.getPointerSize();
  auto Overlaps = [&](uint64_t Offset, uint64_t Bytes) {
    return Offset < End && Offset + Bytes > SharedsOffset;
  };
  SmallVector<LoadInst *, 2> Loads;
  bool Seen = forEachBlockUse(Task, [&](Instruction &I, Value *V, uint64_t Offset) {
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      if (L->isSimple() && Offset == SharedsOffset && L->getType() == Shareds->getType())
        Loads.push_back(L);
      return true;
    }
    if (auto *St = dyn_cast<StoreInst>(&I))
      return St == &Own ||
             (St->getPointerOperand() == V &&
              !Overlaps(Offset, DL.getTypeStoreSize(St->getValueOperand()->getType())));
    if (auto *MI = dyn_cast<MemIntrinsic>(&I)) // a write's extent unknown here
      return MI->getRawDest() != V || !Overlaps(Offset, ~0ull >> 1);
    auto *CB = dyn_cast<CallBase>(&I);
    return CB && CB->getCalledFunction() && CB->getCalledFunction()->getName() == TaskName;
  });
  if (!Seen)
    return;
  for (LoadInst *L : Loads) {
    L->replaceAllUsesWith(Shareds);
    L->eraseFromParent();
  }
}

/// The task's block, initialised as task_alloc would: the shareds pointer,
/// the routine, part_id 0.  A site in a loop gets a block per iteration.
Value *makeBlock(const Site &S, Function &F, const Block &L, Value *&Sp) {
  IRBuilder<> B(S.Alloc);
  AllocaInst *A;
  Sp = nullptr;
  if (S.InCycle) {
    // The stack before the block: where a task called at once gives it back.
    Sp = B.CreateStackSave("ws.omp.sp");
    A = B.CreateAlloca(ArrayType::get(B.getInt8Ty(), L.Size), nullptr, "ws.omp.task");
  } else {
    IRBuilder<> E(&*F.getEntryBlock().getFirstInsertionPt());
    A = E.CreateAlloca(ArrayType::get(B.getInt8Ty(), L.Size), nullptr, "ws.omp.task");
  }
  A->setAlignment(Align(16));
  Value *Shareds = S.SharedsSize ? B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), A, L.Shareds)
                                 : ConstantPointerNull::get(B.getPtrTy());
  StoreInst *Own =
      B.CreateStore(Shareds, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), A, SharedsOffset));
  // The routine is the runtime's to read, and the fast path's runtime
  // never sees the block; part_id only an untied task's entry reads.
  if (!(S.Flags & 1))
    B.CreateStore(B.getInt32(0), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), A, PartIdOffset));
  S.Alloc->replaceAllUsesWith(A);
  S.Alloc->eraseFromParent();
  forwardShareds(*A, Shareds, *Own);
  return A;
}

/// ws/omp_abi.h's __ws_omp_task_ctx_init (inlined from ws-abi.bc): the
/// creator's current task, the flags, what the task inherits.
void initContext(IRBuilderBase &B, Value *Ctx, uint32_t Flags, const OmpAbi &Abi) {
  B.CreateCall(Abi.CtxInit, {Ctx, B.getInt32(Flags)});
}

/// The launch.  The context first (it inherits its creator's final bit);
/// then, where Spawn, a test: in a final or included task the task is
/// included (called at once), else spawned (ws_spawn_void's markers).  The
/// last task before a wait is always called: it would be taken back at
/// once, nothing runs between for a thief to overlap it with.  The test is
/// per site, not a final copy of the function at its entry: the entry stays
/// the function's own, whose leaf test ws-leafsplit moves into the callers.
void launch(const Site &S, Value *Task, const Block &L, bool Spawn, const OmpAbi &Abi,
            Value *Sp, AllocaInst *Live, uint64_t Cap) {
  // Where the task is: clang's location (a constant), read by the runtime.
  auto *Loc = dyn_cast<Constant>(S.Launch->getArgOperand(0));
  Module &M = *S.Launch->getModule();
  IRBuilder<> B(S.Launch);
  B.SetCurrentDebugLocation(S.Launch->getDebugLoc());
  // A context-free task neither has a context made for it here nor looks
  // at its creator's final bit: what final changes (deferred or not) its
  // code cannot tell (rule 6).  Where its creator writes its block in plain
  // ways, it is given the words written instead of the block.
  Value *Ctx = nullptr;
  if (!S.ContextFree) {
    Ctx = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Task, L.Ctx, "ws.omp.ctx");
    initContext(B, Ctx, S.Flags, Abi);
  }
  std::optional<BlockValues> Values;
  if (auto *A = dyn_cast<AllocaInst>(Task); A && S.ContextFree)
    Values = BlockValues::of(*A, *S.Launch);
  Function *Body;
  SmallVector<Value *, 6> Args{Task};
  if (Values) {
    Body = valueBody(*S.Entry, L.Size, *Values, Abi);
    Args = Values->load(B, Task);
    // Nothing reads the block's own shareds pointer now (BlockValues saw
    // every use; the body makes its own): then the block is only written,
    // and goes.
    Values->dropSelfStores();
  } else {
    Body = taskBody(*S.Entry, L.Ctx, Loc ? Loc : ConstantPointerNull::get(B.getPtrTy()), Abi,
                    S.ContextFree);
  }
  if (Spawn) {
    Value *Final = B.getFalse();
    if (!S.ContextFree) {
      Value *Flags = B.CreateLoad(
          B.getInt32Ty(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, WS_OMP_TASK_CTX_FLAGS),
          "ws.omp.flags");
      Final = B.CreateICmpNE(B.CreateAnd(Flags, 2), B.getInt32(0), "ws.omp.final");
    }
    // A site in a loop: at most Cap blocks outstanding since the last wait
    // (the stack they take is bounded); past that, tasks run at once.
    Value *N = nullptr;
    if (Live) {
      N = B.CreateLoad(B.getInt64Ty(), Live, "ws.omp.live");
      Final = B.CreateOr(Final, B.CreateICmpUGE(N, B.getInt64(Cap)), "ws.omp.now");
    }
    // Never run at once (a context-free task outside a loop): spawned
    // unconditionally, so that its sync is ws-lower's static kind (the
    // arguments the parent's values, no loop over slots).
    Instruction *ElseTerm = S.Launch;
    if (!isa<Constant>(Final) || !cast<Constant>(Final)->isZeroValue()) {
      Instruction *ThenTerm;
      SplitBlockAndInsertIfThenElse(Final, S.Launch, &ThenTerm, &ElseTerm);
      IRBuilder<> I(ThenTerm);
      I.SetCurrentDebugLocation(S.Launch->getDebugLoc());
      I.CreateCall(Body, Args);
      if (Sp) // done: its block goes
        I.CreateStackRestore(Sp);
    }
    IRBuilder<> E(ElseTerm);
    E.SetCurrentDebugLocation(S.Launch->getDebugLoc());
    if (Live)
      E.CreateStore(E.CreateAdd(N, E.getInt64(1)), Live);
    PointerType *Ptr = E.getPtrTy();
    FunctionCallee Begin = M.getOrInsertFunction(
        SpawnBeginName, FunctionType::get(Ptr, {Ptr}, /*isVarArg=*/true));
    FunctionCallee End = M.getOrInsertFunction(SpawnEndName, E.getVoidTy());
    Value *Fn = E.CreateCall(Begin, {ConstantPointerNull::get(Ptr), Body});
    E.CreateCall(Body->getFunctionType(), Fn, Args);
    E.CreateCall(End);
  } else {
    B.CreateCall(Body, Args);
    if (Sp)
      B.CreateStackRestore(Sp);
  }
  S.Launch->replaceAllUsesWith(ConstantInt::get(S.Launch->getType(), 0));
  S.Launch->eraseFromParent();
}

/// An untied task re-queues itself at each scheduling point of its code
/// (part_id set to the next part, then __kmpc_omp_task of its own task):
/// its entry is called again at once instead, so that the task runs to its
/// end within the spawn.
void runUntiedAtOnce(Function &Entry) {
  // Its code: the entry and what the entry calls (the outlined task); never
  // further (another untied task's re-queue is that task's).
  SmallPtrSet<Function *, 4> Code{&Entry};
  for (Instruction &I : instructions(Entry))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Fn = CB->getCalledFunction(); Fn && !Fn->isDeclaration())
        Code.insert(Fn);
  for (Function *Fn : Code) {
    SmallVector<CallInst *, 4> Requeues;
    for (Instruction &I : instructions(*Fn))
      if (auto *CI = dyn_cast<CallInst>(&I); CI && isCallTo(*CI, TaskName) &&
                                             CI->arg_size() == 3)
        if (auto *A = dyn_cast<CallInst>(CI->getArgOperand(2)->stripPointerCasts());
            !A || !isCallTo(*A, TaskAllocName))
          Requeues.push_back(CI);
    for (CallInst *CI : Requeues) {
      IRBuilder<> B(CI);
      Value *Gtid = B.CreateZExtOrTrunc(CI->getArgOperand(1),
                                        Entry.getFunctionType()->getParamType(0));
      B.CreateCall(&Entry, {Gtid, CI->getArgOperand(2)});
      CI->replaceAllUsesWith(ConstantInt::get(CI->getType(), 0));
      CI->eraseFromParent();
    }
  }
}

bool waitsAtStart(BasicBlock &BB);

/// Is the next thing after a launch, in its block, a wait (the taskwait of
/// fib's second task)?  Only instructions that do nothing a task could see
/// may come between.
bool waitsRightAfter(Instruction &Launch) {
  for (Instruction *I = Launch.getNextNode(); I; I = I->getNextNode()) {
    if (auto *CB = dyn_cast<CallBase>(I)) {
      if (isWaitPoint(*CB))
        return true;
      if (!isa<DbgInfoIntrinsic>(CB) && !CB->isLifetimeStartOrEnd())
        return false;
      continue;
    }
    if (I->mayReadOrWriteMemory() || I->isTerminator())
      return I->isTerminator() && isa<BranchInst>(I) &&
             cast<BranchInst>(I)->isUnconditional() &&
             waitsAtStart(*cast<BranchInst>(I)->getSuccessor(0));
  }
  return false;
}

/// Does BB (entered from one place) begin with a wait?
bool waitsAtStart(BasicBlock &BB) {
  if (!BB.getSinglePredecessor())
    return false;
  for (Instruction &I : BB) {
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      if (isWaitPoint(*CB))
        return true;
      if (!isa<DbgInfoIntrinsic>(CB) && !CB->isLifetimeStartOrEnd())
        return false;
      continue;
    }
    if (I.mayReadOrWriteMemory() || I.isTerminator())
      return false;
  }
  return false;
}

/// F's sites as spawns, a ws_sync before each wait, and the blocks of
/// sites in loops given back after it (nothing but them was put on the
/// stack since the entry: sites in loops are lowered only in functions
/// with no stack of their own).
void lowerFunction(Function &F, SmallVectorImpl<Site> &Sites, const OmpAbi &Abi) {
  LLVMContext &Ctx = F.getContext();
  bool AnyCyclic = any_of(Sites, [](const Site &S) { return S.InCycle; });
  BasicBlock &Entry = F.getEntryBlock();
  AllocaInst *Live = nullptr;
  if (AnyCyclic) {
    IRBuilder<> E(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
    Live = E.CreateAlloca(E.getInt64Ty(), nullptr, "ws.omp.blocks");
    E.CreateStore(E.getInt64(0), Live);
  }
  for (Site &S : Sites) {
    Block L(S);
    bool Last = waitsRightAfter(*S.Launch);
    Value *Sp;
    Value *Task = makeBlock(S, F, L, Sp);
    launch(S, Task, L, /*Spawn=*/!Last, Abi, Sp, S.InCycle ? Live : nullptr,
           std::max<uint64_t>(1, LoopStackBudget / L.Size));
  }
  Value *Saved = nullptr;
  if (AnyCyclic)
    Saved = IRBuilder<>(&Entry, std::next(cast<Instruction>(Live)->getIterator()))
                .CreateStackSave("ws.omp.stack");
  Module &M = *F.getParent();
  FunctionCallee Sync = M.getOrInsertFunction(SyncName, Type::getVoidTy(Ctx));
  SmallVector<CallBase *, 8> Waits;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && isWaitPoint(*CB))
      Waits.push_back(CB);
  for (CallBase *W : Waits) {
    IRBuilder<> B(W);
    B.SetCurrentDebugLocation(W->getDebugLoc());
    B.CreateCall(Sync);
    if (Saved) {
      B.CreateStackRestore(Saved);
      B.CreateStore(B.getInt64(0), Live);
    }
  }
}

/// A declaration whose calls ask the OpenMP runtime nothing about the
/// current task: LLVM's intrinsics, the C library's functions (as LLVM
/// knows them), C++'s exception support, wsff's own runtime, and of the
/// OpenMP entry points the gtid, the taskwait (which a context-free task
/// leaves as it finds it: rule 6) and the clock.
bool neutralDeclaration(const Function &F, const TargetLibraryInfo &TLI) {
  if (F.isIntrinsic())
    return true;
  StringRef N = F.getName();
  if (is_contained({StringRef(KmpGlobalThreadNumName), StringRef(GlobalThreadNumName),
                    StringRef(KmpTaskwaitName), StringRef(TaskwaitName),
                    StringRef("omp_get_wtime"), StringRef("omp_get_wtick")},
                   N))
    return true;
  for (StringRef P : {"__kmpc_", "omp_", "ompc_", "kmp_", "__ws_omp_", "GOMP_"})
    if (N.starts_with(P))
      return false;
  for (StringRef P : {"__ws_", "ws_", "__cxa_", "_Unwind_"})
    if (N.starts_with(P))
      return true;
  if (N == "_ZSt9terminatev" || N == "__gxx_personality_v0")
    return true;
  LibFunc LF;
  return TLI.getLibFunc(F, LF);
}

/// V, called in F, is a parameter of F, which only direct calls call and
/// each with a function for it: those functions, in Targets.
bool calleesOfParameter(Function &F, Value *V, SmallVectorImpl<Function *> &Targets) {
  // Before mem2reg (ws-lower runs first): the parameter's one store into
  // its alloca, which is otherwise only loaded.
  if (auto *L = dyn_cast<LoadInst>(V))
    if (auto *Slot = dyn_cast<AllocaInst>(L->getPointerOperand())) {
      Value *Stored = nullptr;
      for (User *U : Slot->users()) {
        if (auto *St = dyn_cast<StoreInst>(U);
            St && St->getPointerOperand() == Slot && !Stored)
          Stored = St->getValueOperand();
        else if (!isa<LoadInst>(U))
          return false;
      }
      V = Stored;
    }
  auto *A = dyn_cast_or_null<Argument>(V);
  if (!A || A->getParent() != &F || !F.hasLocalLinkage())
    return false;
  for (User *U : F.users()) {
    auto *Call = dyn_cast<CallBase>(U);
    if (!Call || Call->getCalledOperand() != &F)
      return false;
    auto *T = dyn_cast<Function>(Call->getArgOperand(A->getArgNo())->stripPointerCasts());
    if (!T)
      return false;
    Targets.push_back(T);
  }
  return true;
}

/// The functions whose code may ask the OpenMP runtime about the current
/// task: a query, a task it creates on the general path, a taskgroup, a
/// nested region, a lock, an unknown function (another unit's, which may
/// do any of these), an indirect call; or that reach one through a call, a
/// function they pass to a call (qsort's comparison), or the entry of a
/// task they create on the fast path.  A site whose entry is none of them
/// is context-free (Site::ContextFree).
DenseSet<const Function *>
contextSensitive(Module &M, const MapVector<Function *, SmallVector<Site, 4>> &Plan) {
  TargetLibraryInfoImpl TLII(Triple(M.getTargetTriple()));
  TargetLibraryInfo TLI(TLII);
  DenseMap<const Function *, SmallVector<const Function *, 4>> Callers;
  DenseSet<const Function *> Sensitive;
  SmallVector<const Function *, 16> Work;
  auto Mark = [&](const Function *F) {
    if (Sensitive.insert(F).second)
      Work.push_back(F);
  };
  for (Function &F : M) {
    if (F.isDeclaration() || F.isInterposable()) { // the link may pick another
      if (F.isInterposable() || !neutralDeclaration(F, TLI))
        Mark(&F);
      continue;
    }
    SmallPtrSet<const Instruction *, 8> SiteCalls;
    if (auto It = Plan.find(&F); It != Plan.end())
      for (const Site &S : It->second) {
        SiteCalls.insert(S.Alloc);
        SiteCalls.insert(S.Launch);
        Callers[S.Entry].push_back(&F);
      }
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->isInlineAsm() || SiteCalls.count(CB))
        continue;
      auto *Callee = dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts());
      if (!Callee) {
        // Through a parameter of a local function that every caller gives
        // a known function (clang's task privates map): a call of those.
        SmallVector<Function *, 2> Targets;
        if (!calleesOfParameter(F, CB->getCalledOperand()->stripPointerCasts(), Targets)) {
          Mark(&F);
          break;
        }
        for (Function *T : Targets)
          Callers[T].push_back(&F);
        continue;
      }
      Callers[Callee].push_back(&F);
      for (Value *A : CB->args())
        if (auto *Fn = dyn_cast<Function>(A->stripPointerCasts()))
          Callers[Fn].push_back(&F);
    }
  }
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Function *C : Callers.lookup(F))
      Mark(C);
  }
  return Sensitive;
}

} // namespace

bool isOmpFastPathEntry(StringRef Name) {
  return is_contained({StringRef(FreeBeginName), StringRef(FreeEndName), StringRef(TaskwaitName),
                       StringRef(GlobalThreadNumName)},
                      Name);
}

bool lowerOmpTasks(Module &M) {
  if (!M.getFunction(TaskAllocName))
    return false;
  OmpAbi Abi(M);
  SmallVector<Function *, 8> Functions;
  for (Function &F : M)
    if (!F.isDeclaration())
      Functions.push_back(&F);
  MapVector<Function *, SmallVector<Site, 4>> Plan;
  for (Function *F : Functions) {
    if (F->isVarArg() || F->isPresplitCoroutine() ||
        F->getName().starts_with("ws.omp.") || F->hasFnAttribute(Attribute::Naked))
      continue;
    SmallVector<Site, 4> Sites = candidateSites(*F);
    if (Sites.empty())
      continue;
    if (any_of(Sites, [](const Site &S) { return S.InCycle; }) && hasOwnDynamicStack(*F))
      erase_if(Sites, [](const Site &S) { return S.InCycle; });
    // A large task in a loop (an untied task keeps its locals in its data)
    // takes the heap: the stack would hold few of them.
    erase_if(Sites, [](const Site &S) { return S.InCycle && Block(S).Size > MaxLoopBlock; });
    dropUnwaited(*F, Sites);
    if (!Sites.empty())
      Plan[F] = std::move(Sites);
  }
  if (Plan.empty())
    return false;
  DenseSet<const Function *> Sensitive = contextSensitive(M, Plan);
  SmallPtrSet<Function *, 8> Untied;
  for (auto &[F, Sites] : Plan) {
    for (Site &S : Sites) {
      S.ContextFree = !Sensitive.count(S.Entry);
      if (!(S.Flags & 1))
        Untied.insert(S.Entry);
    }
    lowerFunction(*F, Sites, Abi);
    useOwnEntries(*F, Abi);
  }
  for (Function *Entry : Untied)
    runUntiedAtOnce(*Entry);
  return true;
}

} // namespace wsff
