//===- FunctionLowering.cpp - ws-lower: one function's spawns and syncs ---===//

#include "FunctionLowering.h"

#include "AbiLinker.h"
#include "AbiNames.h"
#include "DeltaRecord.h"
#include "Diagnose.h"
#include "LocalLifetimes.h"
#include "SpawnCall.h"
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
#include "llvm/Analysis/ValueTracking.h"
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
#include "llvm/Transforms/Utils/EscapeEnumerator.h"
#include "llvm/Transforms/Utils/Local.h"

#define DEBUG_TYPE "ws-lower"

using namespace llvm;

namespace wsff {

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
  if (!Suspends.empty()) {
    EntryTailAddr = AB.CreateAlloca(AB.getPtrTy(), nullptr, "ws.entry.tail.addr");
    B.CreateStore(EntryTail, EntryTailAddr);
  }
  if (RT.race())
    B.CreateCall(RT.RaceEnter, {EntryTail});
}

Value *FunctionLowering::entryTail(IRBuilderBase &B) {
  return EntryTailAddr ? B.CreateLoad(B.getPtrTy(), EntryTailAddr, "ws.entry.tail")
                       : EntryTail;
}

Value *FunctionLowering::savedStack(IRBuilderBase &B) {
  return SavedStackAddr ? B.CreateLoad(B.getPtrTy(), SavedStackAddr, "ws.stack")
                        : SavedStack;
}

/// C++20 coroutines (a presplit coroutine: its suspension points are
/// llvm.coro.suspend until CoroSplit cuts the function in pieces).  A
/// spawn outstanding across a suspension would be taken back by a piece
/// that runs on another thread, with the deque of the thread that resumed
/// it: each suspension first syncs, as in the serial elision, where the
/// tasks ran before the co_await or co_yield.  The sync comes before the
/// suspension's coro.save, because await_suspend may already hand the
/// coroutine to another thread.
void FunctionLowering::syncBeforeSuspends() {
  for (IntrinsicInst *Suspend : Suspends) {
    Instruction *At = Suspend;
    if (auto *Save = dyn_cast<IntrinsicInst>(Suspend->getArgOperand(0)))
      if (Save->getIntrinsicID() == Intrinsic::coro_save)
        At = Save;
    CallInst *Sync = CallInst::Create(syncFunction(), "", At->getIterator());
    Sync->setDebugLoc(locationFor(Suspend));
    Syncs.push_back(Sync);
    F.getContext().diagnose(
        OptimizationRemarkAnalysis(DEBUG_TYPE, "SyncBeforeSuspension", Sync->getDebugLoc(),
                                   Sync->getParent())
        << "implicit sync before a coroutine suspension (co_await, co_yield): a "
           "task spawned earlier may still be running");
  }
}

/// Where a coroutine goes on after a suspension (resumed, or destroyed),
/// it may run on another thread, for another caller: its tail, the tail
/// its syncs go down to and the stack its frame blocks are cut from are
/// those of that moment (nothing is outstanding: the suspension synced).
void FunctionLowering::refreshAfterSuspends() {
  for (IntrinsicInst *Suspend : Suspends) {
    // Where the deque keeps its tail out of memory (split, private), the
    // one published last may be higher than ours, from a call made while
    // tasks were outstanding: whoever resumes us next (or the caller we
    // return to now) must find ours, as an entry point gives back its
    // caller's.  Right before the suspension, after its sync.
    if (RT.Publish) {
      Instruction *At = Suspend;
      if (auto *Save = dyn_cast<IntrinsicInst>(Suspend->getArgOperand(0));
          Save && Save->getIntrinsicID() == Intrinsic::coro_save)
        At = Save;
      IRBuilder<> B(At);
      B.CreateCall(RT.Publish, {loadTail(B)});
    }
    for (User *U : Suspend->users()) {
      auto *SW = dyn_cast<SwitchInst>(U);
      if (!SW || SW->getCondition() != Suspend)
        continue;
      SmallPtrSet<BasicBlock *, 2> Done;
      for (auto Case : SW->cases()) {
        BasicBlock *Succ = Case.getCaseSuccessor();
        if (!Done.insert(Succ).second)
          continue;
        BasicBlock *At = SplitEdge(SW->getParent(), Succ);
        IRBuilder<> B(At->getTerminator());
        B.SetCurrentDebugLocation(locationFor(Suspend));
        Value *Tail = B.CreateCall(RT.TailOwned, {}, "ws.resumed.tail");
        B.CreateStore(Tail, TailAddr);
        B.CreateStore(Tail, EntryTailAddr);
        if (SavedStackAddr)
          B.CreateStore(B.CreateStackSave("ws.stack"), SavedStackAddr);
        if (RT.race())
          B.CreateCall(RT.RaceEnter, {Tail});
      }
    }
  }
}

/// Calls of spawning functions made here go to their clones, with the
/// tail as it is at the call (FixedTail: the same at every call).
void FunctionLowering::redirectCalls(Value *FixedTail) {
  SmallVector<std::pair<CallBase *, Function *>, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Callee = CB->getCalledFunction())
        if (Function *Clone = Clones.lookup(Callee))
          Calls.push_back({CB, Clone});
  for (auto [CB, Clone] : Calls) {
    IRBuilder<> B(CB);
    replaceInSites(CB, redirectToClone(*CB, Clone, FixedTail ? FixedTail : loadTail(B)));
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

/// An invoked ws_sync() goes on to its normal destination once lowered
/// (the exceptions of its tasks were passed to its handler on the way).
static void removeSync(CallBase *Sync) {
  if (auto *II = dyn_cast<InvokeInst>(Sync)) {
    II->getUnwindDest()->removePredecessor(II->getParent());
    BranchInst::Create(II->getNormalDest(), II->getIterator());
  }
  Sync->eraseFromParent();
}

bool hasOwnDynamicStack(Function &F) {
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
void FunctionLowering::finishRace() {
  // A coroutine's procedure ends where each piece CoroSplit makes of it
  // returns: at llvm.coro.end (a resumed piece returns there, and its code
  // after it is dropped); each piece began at the entry or where it is
  // resumed (refreshAfterSuspends).
  SmallVector<Instruction *, 8> Ends;
  for (BasicBlock &BB : F)
    if (!Suspends.empty())
      for (Instruction &I : BB)
        if (auto *II = dyn_cast<IntrinsicInst>(&I); II && II->getIntrinsicID() == Intrinsic::coro_end)
          Ends.push_back(II);
  for (Instruction *At : Ends)
    CallInst::Create(RT.RaceLeave, {}, "", At->getIterator())->setDebugLoc(At->getDebugLoc());
  // Any other function's procedure ends at every way out, unwinding
  // included: a task's exception rethrown at a sync, or a callee's, that
  // leaves the function goes through a cleanup that ends it.  Without
  // one, the procedure stayed on SP-bags' stack, and the caller's later
  // strands were told parallel with what it had run before (smith seed
  // 259 case 13: a read after a sync reported racing with the task's
  // write of its result).
  if (Suspends.empty()) {
    EscapeEnumerator Exits(F, "ws.race.leave", /*HandleExceptions=*/MayThrow);
    while (IRBuilder<> *At = Exits.Next())
      At->CreateCall(RT.RaceLeave);
  }
  // An access to the runtime's memory (a slot, what a slot points to) also
  // takes its address through __ws_race_own, which ws-race-instrument
  // knows: the optimizer may merge two such accesses (a dynamic sync's
  // dispatch loads, hoisted out of both arms) and drop their marks, but
  // not the call their address comes from.  Not our locals: the tail must
  // stay promotable to registers (nothing checks them: they never escape).
  MDNode *Skip = MDNode::get(F.getContext(), {});
  unsigned Program = F.getContext().getMDKindID(ProgramAccessMD);
  FunctionCallee Own = F.getParent()->getOrInsertFunction(
      RaceOwnName, FunctionType::get(PointerType::getUnqual(F.getContext()),
                                     {PointerType::getUnqual(F.getContext())}, false));
  if (auto *Fn = dyn_cast<Function>(Own.getCallee())) {
    Fn->setDoesNotAccessMemory();
    Fn->setDoesNotThrow();
    Fn->addFnAttr(Attribute::WillReturn);
  }
  auto Mark = [&](Function &Fn, bool All) {
    for (Instruction &I : instructions(Fn)) {
      bool Mine = I.hasMetadata(Program);
      I.setMetadata(Program, nullptr);
      if (!(All || !Mine) ||
          !(isa<LoadInst>(I) || isa<StoreInst>(I) || isa<AtomicRMWInst>(I) ||
            isa<AtomicCmpXchgInst>(I) || isa<MemIntrinsic>(I)))
        continue;
      I.setMetadata(LLVMContext::MD_nosanitize, Skip);
      unsigned Op = isa<LoadInst>(I) ? LoadInst::getPointerOperandIndex()
                    : isa<StoreInst>(I) ? StoreInst::getPointerOperandIndex()
                                        : ~0u;
      if (Op != ~0u && !isa<AllocaInst>(getUnderlyingObject(I.getOperand(Op))))
        I.setOperand(Op, CallInst::Create(Own, {I.getOperand(Op)}, "ws.own", I.getIterator()));
    }
  };
  Mark(F, false);
  for (SpawnSite &S : Sites) {
    Mark(*S.Thunk, true);
    for (Instruction &I : instructions(*S.Body)) // the program's own
      I.setMetadata(Program, nullptr);
  }
}

/// Locals a task may use die after their last use in the function's code,
/// but before the implicit sync at its return: sync before
/// (LocalLifetimes.h).
Function *FunctionLowering::syncFunction() {
  Module &M = *F.getParent();
  return cast<Function>(
      M.getOrInsertFunction(SyncName, FunctionType::get(Type::getVoidTy(M.getContext()), false))
          .getCallee());
}

void FunctionLowering::syncBeforeLocalsDie() {
  LifetimeSyncs Made = addLifetimeSyncs(F, Sites, Syncs, syncFunction());
  append_range(Syncs, Made.Syncs);
  Unwinding = std::move(Made.Unwinding);
}

/// A landing pad that an exception reaches while spawns are outstanding
/// (an invoke in a try block: a callee's exception, or the function's own
/// throw) starts with a sync: a task's exception, serially first, replaces
/// the one on its way and goes to the same handlers, as in the serial
/// elision, where the task would have thrown before the function did.
void FunctionLowering::syncAtHandlers() {
  analyzeStacks();
  SmallPtrSet<LandingPadInst *, 4> Synced;
  for (auto &[Sync, LP] : Unwinding)
    Synced.insert(LP);
  SmallVector<InvokeInst *, 4> Throwing;
  for (BasicBlock &BB : F) {
    auto *II = dyn_cast<InvokeInst>(BB.getTerminator());
    // A pad that only cleans up resumes, which syncs (the exception of a
    // task replaces the one on its way there): only handlers, which may
    // catch the function's own exception, need the sync first.
    if (!II || II->doesNotThrow() || isCallTo(*II, SyncName) ||
        !II->getUnwindDest()->isLandingPad() ||
        II->getUnwindDest()->getLandingPadInst()->getNumClauses() == 0)
      continue;
    SpawnStack St = In.lookup(&BB);
    for (Instruction &I : BB)
      St = transfer(I, St, /*Record=*/false);
    if (St.K == SpawnStack::Unknown || (St.K == SpawnStack::Known && !St.Sites.empty()))
      if (Synced.insert(II->getUnwindDest()->getLandingPadInst()).second)
        Throwing.push_back(II);
  }
  for (InvokeInst *II : Throwing) {
    LandingPadInst *LP = II->getUnwindDest()->getLandingPadInst();
    InvokeInst *Sync = syncAtLandingPad(*LP, syncFunction(), locationFor(II));
    Syncs.push_back(Sync);
    Unwinding[Sync] = LP;
  }
}

/// The stack of outstanding spawns right before I.
SpawnStack FunctionLowering::stackBefore(Instruction *I) {
  SpawnStack St = In.lookup(I->getParent());
  for (Instruction &J : *I->getParent()) {
    if (&J == I)
      break;
    St = transfer(J, St, /*Record=*/false);
  }
  return St;
}

/// -fws-race: may S's result travel as a value (stored by the parent at
/// the sync instead of by the task) without hiding a race on it?  Where
/// the result is a local whose address stays in the function (through the
/// local slots that hold it, as the ws_spawn macro's does), which the
/// function reads and writes only where S is not outstanding, and whose
/// other spawns are never outstanding together with S: then nothing can
/// touch it in parallel with the task's write (fib's `a`).
bool FunctionLowering::resultCannotRace(const SpawnSite &S) {
  // The result's object: a local, or the one whose address the slot the
  // result address is loaded from holds (the macro's __ws_rp).
  Value *Base = getUnderlyingObject(S.Begin->getArgOperand(0));
  auto *Obj = dyn_cast<AllocaInst>(Base);
  auto *L = dyn_cast<LoadInst>(Base);
  if (auto *Slot = L ? dyn_cast<AllocaInst>(getUnderlyingObject(L->getPointerOperand()))
                     : nullptr) {
    for (User *U : Slot->users()) {
      auto *St = dyn_cast<StoreInst>(U);
      if (!St || St->getPointerOperand() != Slot)
        continue;
      auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(St->getValueOperand()));
      if (!A || (Obj && Obj != A))
        return false;
      Obj = A;
    }
  }
  if (!Obj)
    return false;
  // Every use of the object's address, through GEPs, casts and the local
  // slots it is stored in; its accesses; the spawns whose result it is.
  SmallVector<Instruction *, 16> Accesses;
  SmallVector<unsigned, 2> Targets;
  SmallVector<Value *, 8> Work{Obj};
  SmallPtrSet<Value *, 16> Seen{Obj};
  auto Push = [&](Value *V) {
    if (Seen.insert(V).second)
      Work.push_back(V);
  };
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (Use &U : V->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        return false;
      if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<PHINode>(I) ||
          isa<SelectInst>(I)) {
        if (!I->getType()->isPointerTy())
          return false;
        Push(I);
      } else if (auto *L = dyn_cast<LoadInst>(I)) {
        Accesses.push_back(L);
      } else if (auto *St = dyn_cast<StoreInst>(I)) {
        if (St->getPointerOperand() == V) {
          Accesses.push_back(St);
          continue;
        }
        // The address kept in a local slot that nothing else sees: what
        // is loaded from there may be it.
        auto *Slot = dyn_cast<AllocaInst>(getUnderlyingObject(St->getPointerOperand()));
        if (!Slot)
          return false;
        for (User *SU : Slot->users()) {
          if (auto *SL = dyn_cast<LoadInst>(SU)) {
            Push(SL);
          } else if (auto *SS = dyn_cast<StoreInst>(SU)) {
            if (SS->getValueOperand() == Slot)
              return false;
          } else if (auto *II = dyn_cast<IntrinsicInst>(SU);
                     !II || !(II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))) {
            return false;
          }
        }
      } else if (auto *CB = dyn_cast<CallBase>(I)) {
        if (isa<DbgInfoIntrinsic>(CB) || CB->isLifetimeStartOrEnd() ||
            isCallTo(*CB, SpawnEndName))
          continue;
        auto Site = find_if(Sites, [&](const SpawnSite &T) {
          return T.Begin == CB && CB->getArgOperand(0) == V;
        });
        if (Site == Sites.end())
          return false; // given to a call: it may keep it
        Targets.push_back(Site->Index);
      } else if (!isa<ICmpInst>(I)) {
        return false;
      }
    }
  }
  auto Outstanding = [](const SpawnStack &St, unsigned Site) {
    return St.K == SpawnStack::Unknown ||
           (St.K == SpawnStack::Known && is_contained(St.Sites, Site));
  };
  // The tasks' own result stores (in their regions) are theirs.
  SmallPtrSet<Instruction *, 8> InRegions;
  for (unsigned T : Targets)
    for (Instruction *I = Sites[T].Call; I && I != Sites[T].End; I = I->getNextNode())
      InRegions.insert(I);
  for (Instruction *I : Accesses)
    if (!InRegions.count(I) && Outstanding(stackBefore(I), S.Index))
      return false;
  for (unsigned T : Targets)
    if (T != S.Index && (Outstanding(stackBefore(Sites[T].End), S.Index) ||
                         Outstanding(stackBefore(S.End), T)))
      return false;
  return true;
}

/// A function that manages its own stack (variable-length arrays) frees
/// the frame blocks of spawns in a loop at its stackrestores: sync before
/// those that may free the block of an outstanding task.  True if it
/// added syncs.
bool FunctionLowering::syncBeforeFramesDie() {
  if (none_of(Sites, [](const SpawnSite &S) { return S.InFrame && S.DynamicFrame; }))
    return false;
  LifetimeSyncs Made = addFrameSyncs(F, Sites, Syncs, syncFunction());
  append_range(Syncs, Made.Syncs);
  Unwinding.insert(Made.Unwinding.begin(), Made.Unwinding.end());
  return !Made.Syncs.empty();
}

/// -fws-race: a task keeps a frame of its own (inlined at the sync, the
/// locals of every child would share the parent's: a race that is not).
/// So does the spawned function, whose code then keeps its lines (the body
/// has none).
void FunctionLowering::keepTaskFrames() {
  for (SpawnSite &S : Sites) {
    S.Body->removeFnAttr(Attribute::AlwaysInline);
    S.Body->addFnAttr(Attribute::NoInline);
    for (Instruction &I : instructions(*S.Body))
      if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->getMetadata(SyncCallMD))
        CB->addFnAttr(Attribute::NoInline);
  }
}

/// The frames of the spawns whose arguments live in the spawning
/// function's frame: fixed ones in the entry block; for dynamic ones (a
/// spawn in a loop whose tasks may outlive an iteration) the stack is saved
/// at entry, unless the function manages its own.
void FunctionLowering::allocateFrames(bool OwnDynamicStack) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> AB(&Entry, Entry.begin());
  for (SpawnSite &S : Sites)
    if (S.InFrame && !S.DynamicFrame)
      S.Frame = allocateFrame(S, AB);
  bool AnyDynamicFrame =
      any_of(Sites, [](const SpawnSite &S) { return S.InFrame && S.DynamicFrame; });
  if (AnyDynamicFrame && !OwnDynamicStack) {
    IRBuilder<> IB(&Entry, Entry.getFirstNonPHIOrDbgOrAlloca());
    SavedStack = IB.CreateStackSave("ws.stack");
    if (!Suspends.empty()) {
      SavedStackAddr = AB.CreateAlloca(AB.getPtrTy(), nullptr, "ws.stack.addr");
      IB.CreateStore(SavedStack, SavedStackAddr);
    }
  }
}

/// The spawn itself, where its region ended: the slot at the tail, the
/// tail one slot up, the spawn counted (-fws-stats), the push; -fws-race
/// hears of it.
void FunctionLowering::pushSpawn(SpawnSite &S) {
  IRBuilder<> B(S.End);
  Value *Slot = loadTail(B);
  B.CreateStore(B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Slot, WS_SLOT_SIZE),
                TailAddr);
  countSpawn(B, RT);
  CallInst *Push = emitSpawn(S, Slot, RT.Push);
  if (RT.race())
    CallInst::Create(RT.RaceSpawn, {Slot}, "", Push->getNextNode()->getIterator())
        ->setDebugLoc(Push->getDebugLoc());
}

bool FunctionLowering::run() {
  if (!collect())
    return false;
  // -fws-race: the program's own accesses, told from those the lowering
  // adds by a mark (not by address: a new instruction may take the place
  // of an erased one).
  if (RT.race()) {
    MDNode *Own = MDNode::get(F.getContext(), {});
    for (Instruction &I : instructions(F))
      I.setMetadata(ProgramAccessMD, Own);
  }
  MayThrow = !F.doesNotThrow();
  // A task may throw even where nothing leaves F (a noexcept function
  // that catches what its tasks throw).
  Exceptions.emplace(F);
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->getIntrinsicID() == Intrinsic::coro_suspend)
      Suspends.push_back(II);
  if (!Sites.empty()) {
    syncBeforeLocalsDie();
    syncAtHandlers();
    syncBeforeSuspends();
  }
  analyzeStacks();
  if (Dynamic)
    markCyclicSites();
  bool OwnDynamicStack = hasOwnDynamicStack(F);
  // Results travel as values only where each sync knows its spawns.
  // Results travel as values only where each sync knows its spawns; under
  // -fws-race only where that cannot hide a race on them (the task's
  // write would be the parent's).
  for (SpawnSite &S : Sites) {
    S.Race = RT.race();
    if (!outlineSpawn(S, /*ValueTask=*/!Dynamic && (!RT.race() || resultCannotRace(S)),
                      Clones))
      return false;
  }
  bool MoreSyncs = OwnDynamicStack && syncBeforeFramesDie();
  for (SpawnSite &S : Sites)
    removeTask(S);
  if (RT.race())
    keepTaskFrames();
  if (Sites.empty()) {
    // A clone that spawns nothing itself (an OpenMP task's body,
    // OmpTasks.cpp): its tail is the one it was given, at every call.
    if (TailArg) {
      redirectCalls(TailArg);
      if (RT.Publish)
        publishTail(TailArg);
    }
    for (CallBase *Sync : Syncs)
      removeSync(Sync);
    if (RT.race())
      for (Instruction &I : instructions(F))
        I.setMetadata(ProgramAccessMD, nullptr);
    return true;
  }
  if (MayThrow) {
    if (!addUnwindCleanups())
      return false;
    MoreSyncs = true; // the cleanups' resumes are sync points
  }
  if (MoreSyncs)
    analyzeStacks();

  setUpTail();
  allocateFrames(OwnDynamicStack);
  refreshAfterSuspends();
  redirectCalls();
  for (SpawnSite &S : Sites)
    pushSpawn(S);
  for (auto &[At, St] : SyncPoints) {
    if (St.K == SpawnStack::Unreached ||
        (St.K == SpawnStack::Known && St.Sites.empty()))
      continue;
    if (Dynamic)
      lowerDynamic(At);
    else
      lowerStatic(At, St.Sites);
    // Every task is back: ws-race-instrument's result objects.
    if (RT.race())
      CallInst::Create(RT.RaceSynced, {}, "", At->getIterator());
  }
  for (CallBase *Sync : Syncs)
    removeSync(Sync);
  if (RT.Publish)
    publishTail();
  if (RT.race())
    finishRace();
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
  // Resuming or destroying a coroutine runs its code, which may spawn
  // (and takes the tail that was published: docs/language.md, Coroutines).
  if (Callee->getIntrinsicID() == Intrinsic::coro_resume ||
      Callee->getIntrinsicID() == Intrinsic::coro_destroy)
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
void FunctionLowering::publishTail(Value *FixedTail) {
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
  Publish(F, [&](IRBuilderBase &B) { return FixedTail ? FixedTail : loadTail(B); });
  for (SpawnSite &S : Sites)
    Publish(*S.Body, [&](IRBuilderBase &) { return S.Body->getArg(0); });
}

} // namespace wsff
