//===- LowerSpawnSync.cpp - ws-lower: spawns and syncs onto the runtime --===//

#include "LowerSpawnSync.h"

#include "AbiLinker.h"
#include "AbiNames.h"
#include "DeltaRecord.h"
#include "Diagnose.h"
#include "LocalLifetimes.h"
#include "SpawnHolder.h"
#include "SpawnRegion.h"
#include "TaskExceptions.h"
#include "ViewReach.h"

#include "ws/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
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
  FunctionCallee Tail, Push, Take, Join;
  /// A variadic function's tail (it cannot be submitted); an entry
  /// point's call handed to the workers; the reducer views' test and hooks
  /// around a sync's direct call of a task body.
  FunctionCallee TailOwned, Submit, ViewsAbove, ChildBegin, ChildEnd;
  /// __ws_publish_tail, for variants whose push and take do not store the
  /// tail where __ws_tail finds it; null otherwise.
  Function *Publish = nullptr;
  /// Which calls cannot enter spawning code (so need no published tail).
  std::function<const TargetLibraryInfo &(Function &)> TLI;
  /// ws_tls_spawns, when spawns are counted (-fws-stats).
  GlobalVariable *SpawnCount = nullptr;
  /// -fws-race: the race runtime's procedure and spawn hooks (null
  /// otherwise); every child then runs between ChildBegin and ChildEnd.
  FunctionCallee RaceEnter, RaceLeave, RaceSpawn;
  bool Race = false;
  bool race() const { return Race; }
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
  /// TailArg: the hidden argument of a clone, or null (the function finds
  /// its tail at entry).  MarkViews: the function may reach a reducer
  /// (ViewReach), so its syncs mark where a child runs.
  FunctionLowering(Function &F, const Runtime &RT, const CloneMap &Clones,
                   Argument *TailArg, bool MarkViews = false)
      : F(F), RT(RT), Clones(Clones), TailArg(TailArg), MarkViews(MarkViews) {}
  /// Is every spawn and sync of F well formed?  Errors for those that are
  /// not; changes nothing a later run() would not.
  bool check();
  bool run();

private:
  bool collect();
  SpawnStack transfer(Instruction &I, SpawnStack St, bool Record);
  void analyzeStacks();
  bool addUnwindCleanups();
  void markCyclicSites();
  void setUpTail();
  void redirectCalls();
  void replaceInSites(Value *Old, Value *New);
  DebugLoc locationFor(Instruction *At) const;
  Value *loadTail(IRBuilderBase &B) { return B.CreateLoad(B.getPtrTy(), TailAddr, "ws.tail"); }
  CallInst *emitTake(IRBuilderBase &B, Value *Slot);
  /// Where a copy of a body's call made in a block unwinds (null: a call).
  using UnwindFor = function_ref<BasicBlock *(BasicBlock *CallBlock)>;
  /// What becomes of an exception the marked copy caught, once the views
  /// are put back: B ends the block.
  using OnCaught = function_ref<void(IRBuilderBase &B, Value *Captured)>;
  void runChild(const SpawnSite &S, Value *Slot, Value *FromSlot, IRBuilderBase &B,
                UnwindFor Unwind, OnCaught Caught);
  void lowerStatic(Instruction *At, ArrayRef<unsigned> Stack);
  void lowerDynamic(Instruction *At);
  void publishTail();
  void finishRace(const SmallPtrSetImpl<Instruction *> &Written);

  Function &F;
  const Runtime &RT;
  const CloneMap &Clones;
  Argument *TailArg;
  bool MarkViews;
  SmallVector<SpawnSite, 4> Sites;
  /// A task is pushed at its end marker: only from there is it outstanding
  /// (an exception among the arguments unwinds before the spawn).
  DenseMap<Instruction *, unsigned> SiteOfEnd;
  SmallVector<CallBase *, 4> Syncs; ///< calls, or invokes in a try block
  /// Syncs made at the start of a landing pad (LocalLifetimes), with the
  /// pad: its exception is on its way, as at a resume.
  DenseMap<Instruction *, LandingPadInst *> Unwinding;
  SmallVector<CallInst *, 4> Ends;
  /// Can an exception leave F (C++)?  Then its syncs pass on its tasks'.
  bool MayThrow = false;
  std::optional<TaskExceptions> Exceptions;
  DenseMap<BasicBlock *, SpawnStack> In;
  /// Sync points (explicit syncs, returns, resumes) and their stacks.
  SmallVector<std::pair<Instruction *, SpawnStack>, 8> SyncPoints;
  bool Dynamic = false;
  /// The owner's tail: where the next spawn goes (an alloca that mem2reg
  /// turns into registers), and its value at entry.
  AllocaInst *TailAddr = nullptr;
  Value *EntryTail = nullptr;
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
      S.Loc = CB->getDebugLoc();
      Sites.push_back(S);
    } else if (Callee->getName() == SpawnEndName) {
      Ends.push_back(cast<CallInst>(CB));
    } else if (Callee->getName() == SyncName) {
      Syncs.push_back(CB);
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
  // An end marker no spawn reaches: a stray or a second one.
  for (CallInst *End : Ends)
    if (!SiteOfEnd.count(End)) {
      errorAt(*End, "stray __ws_spawn_end: it ends no ws_spawn (a second end "
                    "marker, or one without a begin; use the ws_spawn macro "
                    "of <ws/ws.h>)");
      OK = false;
    }
  return OK;
}

/// Can Call unwind out of F while spawns are outstanding (and so needs a
/// cleanup that syncs)?  Not the ws builtins (a sync's own exceptions come
/// out once its tasks are back; the spawn markers never throw).
static bool mayUnwind(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  if (!Call || Call->doesNotThrow() || Call->isInlineAsm())
    return false;
  const Function *Callee = Call->getCalledFunction();
  return !Callee || !is_contained({SpawnBeginName, SpawnEndName, SyncName},
                                  Callee->getName());
}

/// The stack after I, given the stack before it; records sync points.
SpawnStack FunctionLowering::transfer(Instruction &I, SpawnStack St,
                                      bool Record) {
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
  } else if (Record && MayThrow && St.K == SpawnStack::Unknown && mayUnwind(I)) {
    Dynamic = true; // its cleanup will sync an unknown stack
  }
  return St;
}

/// Forward dataflow over the CFG: the sequence of outstanding spawns.
void FunctionLowering::analyzeStacks() {
  In.clear();
  SyncPoints.clear();
  Dynamic = false;
  auto Transfer = [&](BasicBlock &BB, SpawnStack St, bool Record) {
    for (Instruction &I : BB)
      St = transfer(I, St, Record);
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

/// A call that may throw while spawns are outstanding unwinds to a cleanup
/// that syncs: an exception leaves no task behind.
bool FunctionLowering::addUnwindCleanups() {
  SmallVector<CallInst *, 8> Calls;
  for (BasicBlock &BB : F) {
    SpawnStack St = In.lookup(&BB);
    for (Instruction &I : BB) {
      bool Outstanding = St.K == SpawnStack::Unknown ||
                         (St.K == SpawnStack::Known && !St.Sites.empty());
      if (Outstanding && mayUnwind(I))
        Calls.push_back(cast<CallInst>(&I));
      St = transfer(I, St, /*Record=*/false);
    }
  }
  if (Calls.empty())
    return true;
  if (!setCxxPersonality(F))
    return false;
  for (CallInst *Call : Calls)
    replaceInSites(Call, addUnwindCleanup(*Call));
  return true;
}

/// In a dynamic function a spawn inside a cycle whose inputs live in the
/// frame (they do not fit the slot) needs a fresh block each time round.
void FunctionLowering::markCyclicSites() {
  for (scc_iterator<Function *> It = scc_begin(&F); !It.isAtEnd(); ++It) {
    const std::vector<BasicBlock *> &SCC = *It;
    if (!It.hasCycle())
      continue;
    for (BasicBlock *BB : SCC)
      for (Instruction &I : *BB) {
        auto Site = SiteOfEnd.find(&I);
        if (Site != SiteOfEnd.end())
          Sites[Site->second].DynamicFrame = true;
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

/// The tail lives in an alloca for the lowering; at entry it is the hidden
/// argument of a clone, or what __ws_tail says.
void FunctionLowering::setUpTail() {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> AB(&Entry, Entry.begin());
  TailAddr = AB.CreateAlloca(AB.getPtrTy(), nullptr, "ws.tail.addr");
  IRBuilder<> B(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
  B.SetCurrentDebugLocation(locationFor(Sites.front().Begin));
  EntryTail = TailArg ? static_cast<Value *>(TailArg)
                      : B.CreateCall(RT.TailOwned, {}, "ws.entry.tail");
  B.CreateStore(EntryTail, TailAddr);
  if (RT.race())
    B.CreateCall(RT.RaceEnter, {EntryTail});
}

/// Calls of spawning functions made here go to their clones, with the
/// tail as it is at the call.
void FunctionLowering::redirectCalls() {
  SmallVector<std::pair<CallBase *, Function *>, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction())
        if (Function *Clone = Clones.lookup(Callee))
          Calls.push_back({CB, Clone});
  for (auto [CB, Clone] : Calls) {
    IRBuilder<> B(CB);
    replaceInSites(CB, redirectToClone(*CB, Clone, loadTail(B)));
  }
}

/// The spawns still to be emitted name their live-ins and result addresses
/// directly (ws_spawn(a, f, g(x))): a call replaced by another (redirected
/// to a clone, made an invoke) must be replaced there too.
void FunctionLowering::replaceInSites(Value *Old, Value *New) {
  for (SpawnSite &S : Sites) {
    std::replace(S.LiveIns.begin(), S.LiveIns.end(), Old, New);
    if (S.ResultPtr == Old)
      S.ResultPtr = New;
  }
}

static MDNode *unlikelyBranch(LLVMContext &Ctx) {
  return MDBuilder(Ctx).createBranchWeights(1, 1 << 20);
}

CallInst *FunctionLowering::emitTake(IRBuilderBase &B, Value *Slot) {
  CallInst *Take = B.CreateCall(RT.Take, {Slot}, "ws.stolen");
  Take->setMetadata(TakeSiteMD, MDNode::get(B.getContext(), {}));
  return Take;
}

/// The direct call of a task body at a sync, which runs the child after
/// the continuation that follows it in serial order.  Where the function
/// may reach a reducer, a second copy runs it between the hooks that keep
/// an ordered view in serial order, when a view needs them; the first copy
/// is the call every function makes (ws-tre still finds it).  Leaves B at
/// the end of both.  A body that may throw: the plain copy unwinds where
/// Unwind says; the marked one to a pad that puts the views back before
/// Caught passes the exception on (an exception must not leave the
/// continuation's updates set aside).
void FunctionLowering::runChild(const SpawnSite &S, Value *Slot, Value *FromSlot,
                                IRBuilderBase &B, UnwindFor Unwind, OnCaught Caught) {
  if (!MarkViews && !RT.race()) {
    callBody(S, Slot, FromSlot, B, Unwind(B.GetInsertBlock()));
    return;
  }
  LLVMContext &Ctx = F.getContext();
  // Right after the run block, so that the function reads in the order it
  // runs (the stolen path after the run).
  BasicBlock *Next = B.GetInsertBlock()->getNextNode();
  BasicBlock *Views = BasicBlock::Create(Ctx, "ws.run.views", &F, Next);
  BasicBlock *Done = BasicBlock::Create(Ctx, "ws.ran", &F, Next);
  DebugLoc DL = B.getCurrentDebugLocation();
  if (RT.race()) {
    // Every child runs between the hooks: the race runtime's bags change
    // there (its views too, each child apart).
    B.CreateBr(Views);
  } else {
    BasicBlock *Plain = BasicBlock::Create(Ctx, "ws.run.plain", &F, Views);
    Value *Above = B.CreateCall(RT.ViewsAbove, {Slot}, "ws.views.above");
    B.CreateCondBr(B.CreateIsNotNull(Above), Views, Plain, unlikelyBranch(Ctx));
    IRBuilder<> P(Plain);
    P.SetCurrentDebugLocation(DL);
    callBody(S, Slot, FromSlot, P, Unwind(Plain));
    P.CreateBr(Done);
  }
  IRBuilder<> V(Views);
  V.SetCurrentDebugLocation(DL);
  Value *Aside = V.CreateCall(RT.ChildBegin, {Slot}, "ws.aside");
  // -fws-race: the task's accesses (its result's store) and its calls are
  // reported at the ws_spawn, not at the sync that runs it.
  if (RT.race() && S.Loc)
    V.SetCurrentDebugLocation(S.Loc);
  BasicBlock *Pad = nullptr;
  if (S.MayThrow && Exceptions) {
    IRBuilder<> T(Ctx);
    Value *Captured;
    Pad = Exceptions->catchCaptured(T, Captured, Done);
    T.SetCurrentDebugLocation(DL);
    T.CreateCall(RT.ChildEnd, {Aside});
    Caught(T, Captured);
  }
  callBody(S, Slot, FromSlot, V, Pad);
  V.SetCurrentDebugLocation(DL);
  V.CreateCall(RT.ChildEnd, {Aside});
  V.CreateBr(Done);
  B.SetInsertPoint(Done);
}

/// Take back each spawn of Stack, most recent first, before At: its slot
/// is the one below the tail.
void FunctionLowering::lowerStatic(Instruction *At, ArrayRef<unsigned> Stack) {
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Unwind = unwindOf(At);
  // A task's exception: with one task and no exception of the function's
  // own on its way, it leaves the direct call (or the join) at once;
  // otherwise it waits for the other tasks (TaskExceptions.h).
  bool Direct = Stack.size() == 1 && !isa<ResumeInst>(At) && !Unwinding.count(At);
  bool Waits = !Direct && any_of(Stack, [&](unsigned I) { return Sites[I].MayThrow; });
  if (Waits)
    Exceptions->startSync(At);
  for (unsigned Idx : llvm::reverse(Stack)) {
    SpawnSite &S = Sites[Idx];
    BasicBlock *Pre = At->getParent();
    BasicBlock *Cont = SplitBlock(Pre, At, static_cast<DominatorTree *>(nullptr),
                                  nullptr, nullptr, "ws.synced");
    Pre->getTerminator()->eraseFromParent();
    BasicBlock *Run = BasicBlock::Create(Ctx, "ws.run", &F, Cont);
    BasicBlock *Stolen = BasicBlock::Create(Ctx, "ws.join", &F, Cont);
    IRBuilder<> B(Pre);
    B.SetCurrentDebugLocation(locationFor(At));
    Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), loadTail(B),
                                               -(int64_t)WS_SLOT_SIZE, "ws.slot");
    B.CreateStore(Slot, TailAddr);
    Value *Taken = emitTake(B, Slot);
    B.CreateCondBr(B.CreateIsNotNull(Taken), Stolen, Run, unlikelyBranch(Ctx));
    B.SetInsertPoint(Run);
    auto BodyUnwind = [&](BasicBlock *CallBlock) -> BasicBlock * {
      if (S.MayThrow && Direct && Unwind) {
        addUnwindPredecessor(Unwind, CallBlock, At);
        return Unwind;
      }
      if (S.MayThrow && !Direct)
        return Exceptions->catchInto(Cont);
      return nullptr;
    };
    auto Caught = [&](IRBuilderBase &T, Value *Captured) {
      if (Direct) {
        Exceptions->rethrow(T, Captured, Unwind, At);
      } else {
        Exceptions->keep(T, Captured);
        T.CreateBr(Cont);
      }
    };
    runChild(S, Slot, nullptr, B, BodyUnwind, Caught);
    B.CreateBr(Cont);
    B.SetInsertPoint(Stolen);
    Value *Threw = B.CreateCall(RT.Join, {Slot}, "ws.exn.stolen");
    if (S.MayThrow) {
      auto *Thrown = BasicBlock::Create(Ctx, "ws.join.threw", &F, Cont);
      auto *Returned = BasicBlock::Create(Ctx, "ws.join.done", &F, Cont);
      B.CreateCondBr(B.CreateIsNotNull(Threw), Thrown, Returned);
      IRBuilder<> T(Thrown);
      T.SetCurrentDebugLocation(locationFor(At));
      if (Direct) {
        Exceptions->rethrow(T, Threw, Unwind, At);
      } else {
        Exceptions->keep(T, Threw);
        T.CreateBr(Cont);
      }
      B.SetInsertPoint(Returned);
    }
    storeStolenResult(S, Slot, B);
    B.CreateBr(Cont);
  }
  if (Waits) {
    BasicBlock *Pre = At->getParent();
    SplitBlock(Pre, At, static_cast<DominatorTree *>(nullptr), nullptr, nullptr,
               "ws.synced");
    Pre->getTerminator()->eraseFromParent();
    IRBuilder<> B(Pre);
    B.SetCurrentDebugLocation(locationFor(At));
    Exceptions->finishSync(B, At, Unwind, Unwinding.lookup(At));
    B.CreateBr(At->getParent());
  }
}

/// Take back every spawn of this invocation, down to the entry tail,
/// before At.  Which spawn a slot holds, its thunk says.
void FunctionLowering::lowerDynamic(Instruction *At) {
  LLVMContext &Ctx = F.getContext();
  bool Waits = any_of(Sites, [](const SpawnSite &S) { return S.MayThrow; });
  if (Waits)
    Exceptions->startSync(At);
  BasicBlock *Pre = At->getParent();
  BasicBlock *Cont = SplitBlock(Pre, At, static_cast<DominatorTree *>(nullptr),
                                nullptr, nullptr, "ws.synced");
  auto *Head = BasicBlock::Create(Ctx, "ws.sync", &F, Cont);
  auto *Pop = BasicBlock::Create(Ctx, "ws.pop", &F, Cont);
  auto *Stolen = BasicBlock::Create(Ctx, "ws.join", &F, Cont);
  auto *Done = BasicBlock::Create(Ctx, "ws.drained", &F, Cont);
  Pre->getTerminator()->setSuccessor(0, Head);
  DebugLoc DL = locationFor(At);

  IRBuilder<> B(Head);
  B.SetCurrentDebugLocation(DL);
  Value *Tail = loadTail(B);
  B.CreateCondBr(B.CreateICmpEQ(Tail, EntryTail), Done, Pop);

  B.SetInsertPoint(Pop);
  Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Tail,
                                             -(int64_t)WS_SLOT_SIZE, "ws.slot");
  B.CreateStore(Slot, TailAddr);
  Value *Taken = emitTake(B, Slot);
  BasicBlock *Dispatch = BasicBlock::Create(Ctx, "ws.run", &F, Stolen);
  B.CreateCondBr(B.CreateIsNotNull(Taken), Stolen, Dispatch, unlikelyBranch(Ctx));

  B.SetInsertPoint(Stolen);
  Value *Threw = B.CreateCall(RT.Join, {Slot}, "ws.exn.stolen");
  if (Waits) {
    auto *Thrown = BasicBlock::Create(Ctx, "ws.join.threw", &F, Dispatch);
    B.CreateCondBr(B.CreateIsNotNull(Threw), Thrown, Head);
    IRBuilder<> T(Thrown);
    T.SetCurrentDebugLocation(DL);
    Exceptions->keep(T, Threw);
    T.CreateBr(Head);
  } else {
    B.CreateBr(Head);
  }

  // Which spawn was it?  Compare the thunk in the slot.
  B.SetInsertPoint(Dispatch);
  Value *Thunk = Sites.size() > 1 ? B.CreateLoad(B.getPtrTy(), Slot, "ws.thunk") : nullptr;
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
    runChild(
        S, Slot, Slot, R,
        [&](BasicBlock *) { return S.MayThrow ? Exceptions->catchInto(Head) : nullptr; },
        [&](IRBuilderBase &T, Value *Captured) {
          Exceptions->keep(T, Captured);
          T.CreateBr(Head);
        });
    R.CreateBr(Head);
  }

  B.SetInsertPoint(Done);
  if (SavedStack)
    B.CreateStackRestore(SavedStack);
  if (Waits)
    Exceptions->finishSync(B, At, unwindOf(At), Unwinding.lookup(At));
  B.CreateBr(Cont);
}

/// An invoked ws_sync() goes on to its normal destination once lowered
/// (the exceptions of its tasks were passed to its handler on the way).
static void removeSync(CallBase *Sync) {
  if (auto *II = dyn_cast<InvokeInst>(Sync)) {
    II->getUnwindDest()->removePredecessor(II->getParent());
    BranchInst::Create(II->getNormalDest(), II->getIterator());
  }
  Sync->eraseFromParent();
}

/// Does F allocate on the stack dynamically, apart from our frame blocks?
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

bool FunctionLowering::check() {
  if (!collect())
    return false;
  bool OK = true;
  for (SpawnSite &S : Sites)
    OK &= checkSpawnRegion(S);
  return OK;
}

/// -fws-race: the procedure ends at every way out; and the memory the
/// lowering itself reads and writes (slots, frames, the tail, exceptions
/// kept) is the runtime's, not the program's: ThreadSanitizer's
/// instrumentation skips it (!nosanitize).
void FunctionLowering::finishRace(const SmallPtrSetImpl<Instruction *> &Written) {
  for (BasicBlock &BB : F) {
    Instruction *T = BB.getTerminator();
    if (isa<ReturnInst>(T) || isa<ResumeInst>(T))
      CallInst::Create(RT.RaceLeave, {}, "", T->getIterator())->setDebugLoc(T->getDebugLoc());
  }
  MDNode *Skip = MDNode::get(F.getContext(), {});
  auto Mark = [&](Function &Fn, bool All) {
    for (Instruction &I : instructions(Fn))
      if ((All || !Written.count(&I)) &&
          (isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
           isa<AtomicCmpXchgInst>(I) || isa<MemIntrinsic>(I)))
        I.setMetadata(LLVMContext::MD_nosanitize, Skip);
  };
  Mark(F, false);
  for (SpawnSite &S : Sites)
    Mark(*S.Thunk, true);
}

bool FunctionLowering::run() {
  if (!collect())
    return false;
  SmallPtrSet<Instruction *, 32> Written; // -fws-race: the program's own
  if (RT.race())
    for (Instruction &I : instructions(F))
      Written.insert(&I);
  if (!Sites.empty()) {
    // Locals a task may use die after their last use in the function's
    // code, but before the implicit sync at its return: sync before.
    Module &M = *F.getParent();
    auto *SyncFn = cast<Function>(
        M.getOrInsertFunction(SyncName, FunctionType::get(Type::getVoidTy(M.getContext()), false))
            .getCallee());
    LifetimeSyncs Made = addLifetimeSyncs(F, Sites, Syncs, SyncFn);
    append_range(Syncs, Made.Syncs);
    Unwinding = std::move(Made.Unwinding);
  }
  MayThrow = !F.doesNotThrow();
  if (MayThrow)
    Exceptions.emplace(F);
  analyzeStacks();
  if (Dynamic)
    markCyclicSites();
  bool OwnDynamicStack = hasOwnDynamicStack(F);
  // Results travel as values only where each sync knows its spawns.
  for (SpawnSite &S : Sites)
    if (!outlineSpawn(S, /*ValueTask=*/!Dynamic && !RT.race(), Clones))
      return false;
  for (SpawnSite &S : Sites)
    removeTask(S);
  // -fws-race: a task keeps a frame of its own (inlined at the sync, the
  // locals of every child would share the parent's: a race that is not).
  // So does the spawned function, whose code then keeps its lines (the
  // body has none).
  if (RT.race())
    for (SpawnSite &S : Sites) {
      S.Body->removeFnAttr(Attribute::AlwaysInline);
      S.Body->addFnAttr(Attribute::NoInline);
      for (Instruction &I : instructions(*S.Body))
        if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->getMetadata(SyncCallMD))
          CB->addFnAttr(Attribute::NoInline);
    }
  if (Sites.empty()) {
    for (CallBase *Sync : Syncs)
      removeSync(Sync);
    return true;
  }
  if (MayThrow) {
    if (!addUnwindCleanups())
      return false;
    analyzeStacks(); // the cleanups' resumes are sync points
  }

  setUpTail();
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> AB(&Entry, Entry.begin());
  for (SpawnSite &S : Sites)
    if (S.InFrame && !S.DynamicFrame) {
      S.Frame = AB.CreateAlloca(S.LayoutTy, nullptr, "ws.frame");
      S.Frame->setAlignment(Align(16));
    }
  bool AnyDynamicFrame =
      any_of(Sites, [](const SpawnSite &S) { return S.InFrame && S.DynamicFrame; });
  if (AnyDynamicFrame && !OwnDynamicStack) {
    IRBuilder<> IB(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
    SavedStack = IB.CreateStackSave("ws.stack");
  }
  redirectCalls();
  for (SpawnSite &S : Sites) {
    IRBuilder<> B(S.End);
    Value *Slot = loadTail(B);
    B.CreateStore(B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Slot, WS_SLOT_SIZE),
                  TailAddr);
    if (RT.SpawnCount) {
      Value *Count = B.CreateThreadLocalAddress(RT.SpawnCount);
      B.CreateStore(B.CreateAdd(B.CreateLoad(B.getInt64Ty(), Count), B.getInt64(1)),
                    Count);
    }
    CallInst *Push = emitSpawn(S, Slot, RT.Push);
    if (RT.race())
      CallInst::Create(RT.RaceSpawn, {Slot}, "", Push->getNextNode()->getIterator())
          ->setDebugLoc(Push->getDebugLoc());
  }
  for (auto &[At, St] : SyncPoints) {
    if (St.K == SpawnStack::Unreached ||
        (St.K == SpawnStack::Known && St.Sites.empty()))
      continue;
    if (Dynamic)
      lowerDynamic(At);
    else
      lowerStatic(At, St.Sites);
  }
  for (CallBase *Sync : Syncs)
    removeSync(Sync);
  if (RT.Publish)
    publishTail();
  if (RT.race())
    finishRace(Written);
  dropAttributesTheRuntimeBreaks(F);
  return true;
}

/// Can a call made where the tail is only in a register enter spawning
/// code through an entry point (__ws_tail)?  Not a call of a clone (it
/// gets the tail), of a task body (inlined, and looked at on its own), of
/// the runtime, of an intrinsic, or of anything that only reads memory or
/// cannot call back into the program.
static bool mayEnterSpawningCode(const CallBase &CB, const Runtime &RT,
                                 const CloneMap &Clones,
                                 const SmallPtrSetImpl<Function *> &Ours) {
  if (CB.isInlineAsm() || CB.onlyReadsMemory() ||
      CB.hasFnAttr(Attribute::NoCallback))
    return false;
  Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return true;
  if (Callee->isIntrinsic() || Callee->hasFnAttribute(CloneAttr) ||
      Ours.count(Callee) || abiCallEffect(Callee->getName()))
    return false;
  if (Callee->isDeclaration()) {
    LibFunc LF;
    const TargetLibraryInfo &TLI = RT.TLI(*const_cast<Function *>(CB.getFunction()));
    if (TLI.getLibFunc(*Callee, LF) && TLI.has(LF) && LF != LibFunc_qsort &&
        LF != LibFunc_atexit)
      return false;
  }
  return true;
}

/// Split and private deques keep the owner's tail out of memory; before a
/// call that may reach an entry point, store it there (in the function and
/// in the bodies of its tasks, whose tail is their first argument).
void FunctionLowering::publishTail() {
  SmallPtrSet<Function *, 8> Ours;
  for (SpawnSite &S : Sites) {
    Ours.insert(S.Body);
    Ours.insert(S.Thunk);
  }
  auto Publish = [&](Function &Fn, function_ref<Value *(IRBuilderBase &)> Tail) {
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(Fn))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (mayEnterSpawningCode(*CB, RT, Clones, Ours))
          Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      IRBuilder<> B(CB);
      B.CreateCall(RT.Publish, {Tail(B)});
    }
  };
  Publish(F, [&](IRBuilderBase &B) { return loadTail(B); });
  for (SpawnSite &S : Sites)
    Publish(*S.Body, [&](IRBuilderBase &) { return S.Body->getArg(0); });
}

/// The markers must be the declarations of <ws/ws.h>, and only called.
/// Also accepts Earlier, the begin marker's type before it returned the
/// function (IR written against it).
bool checkBuiltin(Module &M, StringRef Name, FunctionType *Expected,
                  FunctionType *Earlier = nullptr) {
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

/// The entry point's path on a thread the workers do not run: its
/// arguments go into a closure in its frame, a thunk (F.ws.submitted) that
/// a worker runs with its own tail calls the clone with them and leaves
/// the result there, and __ws_submit returns once it has (runtime
/// submit.c).  An exception the call throws is caught by the thunk, kept in
/// the closure, and thrown again by the entry point on the calling thread,
/// as in the serial elision.  Arguments the frame cannot hand over
/// (inalloca, preallocated) make the call fatal there, as a variadic
/// function's.
static void emitSubmit(Function &F, Function &Clone, AttributeList CallAttrs,
                       const Runtime &RT, BasicBlock *Submit) {
  LLVMContext &Ctx = F.getContext();
  Module &M = *F.getParent();
  IRBuilder<> B(Submit);
  for (unsigned I = 0; I < F.arg_size(); ++I)
    if (F.hasParamAttribute(I, Attribute::InAlloca) ||
        F.hasParamAttribute(I, Attribute::Preallocated)) {
      B.CreateCall(RT.TailOwned);
      B.CreateUnreachable();
      return;
    }
  Type *RetTy = F.getReturnType();
  Type *Ptr = PointerType::getUnqual(Ctx);
  bool MayThrow = !Clone.doesNotThrow();
  SmallVector<Type *, 8> Fields;
  for (Argument &A : F.args())
    Fields.push_back(A.getType());
  unsigned ResultIdx = Fields.size();
  if (!RetTy->isVoidTy())
    Fields.push_back(RetTy);
  unsigned ThrewIdx = Fields.size(); // the exception the call threw
  if (MayThrow)
    Fields.push_back(Ptr);
  StructType *ClosureTy = StructType::get(Ctx, Fields);

  Function *Thunk = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false),
      GlobalValue::InternalLinkage, F.getAddressSpace(),
      Clone.getName() + ".submitted", F.getParent());
  Thunk->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  // Compiled for F's target, so that the clone may inline into it and the
  // store-buffer table sees the CPU F was compiled for.
  for (StringRef A : {"target-cpu", "target-features", "tune-cpu", "frame-pointer"})
    if (F.hasFnAttribute(A))
      Thunk->addFnAttr(F.getFnAttribute(A));
  {
    IRBuilder<> TB(BasicBlock::Create(Ctx, "entry", Thunk));
    Value *Closure = Thunk->getArg(0);
    SmallVector<Value *, 8> Args{Thunk->getArg(1)};
    for (unsigned I = 0; I < F.arg_size(); ++I)
      Args.push_back(TB.CreateLoad(Fields[I], TB.CreateStructGEP(ClosureTy, Closure, I)));
    CallBase *Call;
    if (MayThrow) {
      // Caught here, on the worker: an exception must not leave a worker.
      IRBuilder<> CB(Ctx);
      Value *Captured;
      BasicBlock *Caught = TaskExceptions(*Thunk).catchCaptured(CB, Captured, nullptr);
      CB.CreateStore(Captured, CB.CreateStructGEP(ClosureTy, Closure, ThrewIdx));
      CB.CreateRetVoid();
      BasicBlock *Returned = BasicBlock::Create(Ctx, "returned", Thunk, Caught);
      Call = TB.CreateInvoke(&Clone, Returned, Caught, Args);
      TB.SetInsertPoint(Returned);
    } else {
      Call = TB.CreateCall(&Clone, Args);
    }
    Call->setAttributes(CallAttrs);
    if (!RetTy->isVoidTy())
      TB.CreateStore(Call, TB.CreateStructGEP(ClosureTy, Closure, ResultIdx));
    TB.CreateRetVoid();
  }

  // A call with neither arguments nor a result has nothing to hand over.
  Value *Closure = ConstantPointerNull::get(cast<PointerType>(Ptr));
  if (!Fields.empty()) {
    BasicBlock &Entry = F.getEntryBlock();
    IRBuilder<> AB(&Entry, Entry.begin());
    Closure = AB.CreateAlloca(ClosureTy, nullptr, "ws.closure");
  }
  for (unsigned I = 0; I < F.arg_size(); ++I)
    B.CreateStore(F.getArg(I), B.CreateStructGEP(ClosureTy, Closure, I));
  if (MayThrow)
    B.CreateStore(ConstantPointerNull::get(cast<PointerType>(Ptr)),
                  B.CreateStructGEP(ClosureTy, Closure, ThrewIdx));
  B.CreateCall(RT.Submit, {Thunk, Closure});
  if (MayThrow) {
    Value *Threw = B.CreateLoad(Ptr, B.CreateStructGEP(ClosureTy, Closure, ThrewIdx),
                                "ws.submitted.threw");
    BasicBlock *Rethrow = BasicBlock::Create(Ctx, "ws.submitted.rethrow", &F);
    BasicBlock *Returned = BasicBlock::Create(Ctx, "ws.submitted.done", &F);
    B.CreateCondBr(B.CreateIsNotNull(Threw), Rethrow, Returned);
    IRBuilder<> R(Rethrow);
    FunctionCallee Throw = M.getOrInsertFunction(
        ExceptionRethrowName, FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false));
    if (auto *Fn = dyn_cast<Function>(Throw.getCallee())) // (a module may declare it otherwise)
      Fn->setDoesNotReturn();
    R.CreateCall(Throw, {Threw});
    R.CreateUnreachable();
    B.SetInsertPoint(Returned);
  }
  if (RetTy->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(B.CreateLoad(RetTy, B.CreateStructGEP(ClosureTy, Closure, ResultIdx)));
}

/// F's clone taking the tail as a hidden first argument (Cilk's fast
/// clone): F's body moves into it, with its debug information, and F stays
/// behind as the entry point for callers that do not know the tail
/// (other modules, function pointers), which asks __ws_tail for it.
Function *makeClone(Function &F, const Runtime &RT) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  FunctionType *FT = F.getFunctionType();
  SmallVector<Type *, 8> Params{PointerType::getUnqual(Ctx)};
  append_range(Params, FT->params());
  Function *Clone =
      Function::Create(FunctionType::get(FT->getReturnType(), Params, false),
                       GlobalValue::InternalLinkage, F.getAddressSpace(),
                       F.getName() + ".ws", &M);
  Clone->copyAttributesFrom(&F);
  Clone->setLinkage(GlobalValue::InternalLinkage);
  Clone->setVisibility(GlobalValue::DefaultVisibility);
  Clone->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  Clone->setComdat(nullptr);
  Clone->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  AttributeList AL = F.getAttributes();
  SmallVector<AttributeSet, 8> ParamAttrs{AttributeSet()};
  for (unsigned I = 0; I < F.arg_size(); ++I)
    ParamAttrs.push_back(AL.getParamAttrs(I));
  Clone->setAttributes(
      AttributeList::get(Ctx, AL.getFnAttrs(), AL.getRetAttrs(), ParamAttrs));
  Clone->addFnAttr(CloneAttr);
  Clone->getArg(0)->setName("ws.tail");

  Clone->splice(Clone->begin(), &F);
  for (unsigned I = 0; I < F.arg_size(); ++I) {
    Argument *Old = F.getArg(I), *New = Clone->getArg(I + 1);
    New->takeName(Old);
    Old->replaceAllUsesWith(New);
  }
  SmallVector<std::pair<unsigned, MDNode *>, 4> MDs;
  F.getAllMetadata(MDs);
  for (auto [Kind, MD] : MDs)
    Clone->setMetadata(Kind, MD);
  F.clearMetadata();

  // F: the entry point.  On a thread the workers do not run, __ws_tail is
  // null and the call goes to the workers (emitSubmit).
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", &F));
  Value *Tail = B.CreateCall(RT.Tail, {}, "ws.tail");
  BasicBlock *Run = BasicBlock::Create(Ctx, "ws.run", &F);
  BasicBlock *Submit = BasicBlock::Create(Ctx, "ws.submit", &F);
  B.CreateCondBr(B.CreateIsNotNull(Tail), Run, Submit,
                 MDBuilder(Ctx).createBranchWeights(1 << 20, 1));
  B.SetInsertPoint(Run);
  SmallVector<Value *, 8> Args{Tail};
  for (Argument &A : F.args())
    Args.push_back(&A);
  // Where the fast paths do not store the tail, the clone leaves the one
  // it last published, higher than ours: give our caller its own back, on
  // return and when an exception leaves the clone (a cleanup).
  CallBase *Call;
  if (RT.Publish && !Clone->doesNotThrow()) {
    BasicBlock *Returned = BasicBlock::Create(Ctx, "ws.returned", &F);
    BasicBlock *Unwound = BasicBlock::Create(Ctx, "ws.unwound", &F);
    Call = B.CreateInvoke(Clone, Returned, Unwound, Args);
    IRBuilder<> U(Unwound);
    LandingPadInst *Pad = U.CreateLandingPad(
        StructType::get(PointerType::getUnqual(Ctx), Type::getInt32Ty(Ctx)), 0);
    Pad->setCleanup(true);
    U.CreateCall(RT.Publish, {Tail});
    U.CreateResume(Pad);
    // A cleanup runs under any personality; a function with none (C with
    // -fexceptions) gets C's, which needs no C++ runtime.
    if (!F.hasPersonalityFn())
      F.setPersonalityFn(cast<Constant>(
          M.getOrInsertFunction(CPersonalityName,
                                FunctionType::get(Type::getInt32Ty(Ctx), true))
              .getCallee()));
    B.SetInsertPoint(Returned);
  } else {
    Call = B.CreateCall(Clone, Args);
  }
  Call->setAttributes(Clone->getAttributes().removeFnAttributes(Ctx));
  if (RT.Publish)
    B.CreateCall(RT.Publish, {Tail});
  if (FT->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  emitSubmit(F, *Clone, Call->getAttributes(), RT, Submit);
  F.removeFnAttr(Attribute::Naked);
  // The entry point reads the tail and runs spawning code: whatever the
  // user promised about F's memory holds for neither.
  dropAttributesTheRuntimeBreaks(F);
  return Clone;
}

} // namespace

PreservedAnalyses LowerSpawnSyncPass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::string Conflict = Opts.conflict();
  if (!Conflict.empty())
    report_fatal_error(Twine("wsff: ") + Conflict, /*gen_crash_diag=*/false);
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  bool OK = checkBuiltin(M, SpawnBeginName, FunctionType::get(Ptr, {Ptr}, true),
                         FunctionType::get(Void, {Ptr}, true));
  OK &= checkBuiltin(M, SpawnEndName, FunctionType::get(Void, false));
  OK &= checkBuiltin(M, SyncName, FunctionType::get(Void, false));
  if (!OK)
    return PreservedAnalyses::all();

  // Functions that spawn (or hold an end marker: a stray one is an
  // error), and those that only sync (which have nothing to take back:
  // their syncs go away).
  SetVector<Function *> Spawning, Syncing;
  for (StringRef Marker : {SpawnBeginName, SpawnEndName})
    if (Function *Fn = M.getFunction(Marker))
      for (User *U : Fn->users())
        Spawning.insert(cast<CallBase>(U)->getFunction());
  if (Function *Fn = M.getFunction(SyncName))
    for (User *U : Fn->users())
      if (!Spawning.count(cast<CallBase>(U)->getFunction()))
        Syncing.insert(cast<CallBase>(U)->getFunction());
  if (Spawning.empty() && Syncing.empty())
    return PreservedAnalyses::all();

  Runtime RT;
  if (!declareRuntime(M, Opts, RT))
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  RT.TLI = [&FAM](Function &F) -> const TargetLibraryInfo & {
    return FAM.getResult<TargetLibraryAnalysis>(F);
  };
  // C++ spawns as plain IR (the holder's helpers inlined): the spawned
  // function is then a constant, as in C.
  for (Function *F : Spawning)
    inlineSpawnHelpers(*F);
  // Which spawning functions mark their children for the reducers: those
  // that may reach one, decided on the module as written.
  ViewReach Reach(M, RT.TLI);
  // A function with a malformed spawn has its error and is left as it is
  // (valid IR: clang may go on after an error).
  CloneMap Clones;
  Spawning.remove_if([&](Function *F) {
    return !FunctionLowering(*F, RT, Clones, nullptr).check();
  });
  // A clone for every spawning function first, so that each lowering can
  // send the calls it makes to them.  Variadic functions keep their body
  // and find their tail at entry; so do those the link may replace (weak,
  // linkonce, or semantically interposable): a call bound to this
  // module's clone would run the definition the linker did not choose.
  for (Function *F : Spawning)
    if (!F->isVarArg() && !F->isInterposable())
      Clones[F] = makeClone(*F, RT);
  SmallPtrSet<Function *, 16> MarkViews;
  for (Function *F : Spawning)
    if (Reach.mayReach(*F))
      MarkViews.insert(F);
  for (Function *F : Spawning) {
    Function *Clone = Clones.lookup(F);
    FunctionLowering(Clone ? *Clone : *F, RT, Clones,
                     Clone ? Clone->getArg(0) : nullptr, MarkViews.count(F))
        .run();
  }
  for (Function *F : Syncing)
    FunctionLowering(*F, RT, Clones, nullptr).run();

  for (StringRef Name : {StringRef(SpawnBeginName), StringRef(SpawnEndName),
                         StringRef(SyncName), StringRef(TailName),
                         StringRef(TailOwnedName), StringRef(SubmitName),
                         StringRef(ViewsAboveName), StringRef(ChildBeginName),
                         StringRef(ChildEndName), StringRef(RaceEnterName),
                         StringRef(RaceLeaveName), StringRef(RaceSpawnName)})
    if (Function *Fn = M.getFunction(Name))
      if (Fn->use_empty())
        Fn->eraseFromParent();

  ensureRecord(M, Opts);
  // -fws-race calls the fast paths: inlined, ThreadSanitizer's pass would
  // check the deque's memory as the program's.
  if (Opts.InlineAbi && !Opts.Race)
    linkAbiFastPaths(M, Opts);
  return PreservedAnalyses::none();
}

} // namespace wsff
