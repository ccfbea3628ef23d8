//===- LocalLifetimes.cpp - Syncs before a reached local dies -------------===//

#include "LocalLifetimes.h"

#include "TaskReach.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>

#define DEBUG_TYPE "ws-lower"

using namespace llvm;

namespace wsff {
namespace {

/// The one alloca P points into, through phis (an array's destruction loop).
AllocaInst *localOf(const Value *P) {
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(P, Objs);
  AllocaInst *A = Objs.size() ? dyn_cast<AllocaInst>(const_cast<Value *>(Objs[0])) : nullptr;
  for (const Value *O : Objs)
    if (O != A)
      return nullptr;
  return A;
}

/// The local that a lifetime end or a destructor call ends, if it is one.
AllocaInst *endedLocal(Instruction &I, const CalleeKinds &Kinds) {
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || !CB->arg_size())
    return nullptr;
  Value *Obj = nullptr;
  if (auto *II = dyn_cast<IntrinsicInst>(CB)) {
    if (II->getIntrinsicID() == Intrinsic::lifetime_end)
      Obj = II->getArgOperand(1);
  } else if (Kinds.of(*CB) == CalleeKind::Destructor) {
    Obj = CB->getArgOperand(0);
  }
  return Obj ? localOf(Obj) : nullptr;
}

AllocaInst *startedLocal(Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II || II->getIntrinsicID() != Intrinsic::lifetime_start)
    return nullptr;
  return localOf(II->getArgOperand(1));
}

bool callsBeginCatch(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Fn = CB->getCalledFunction())
        if (Fn->getName() == "__cxa_begin_catch")
          return true;
  return false;
}

/// The handler a call placed before I would unwind to, as the calls
/// before it in its scope do: the invoke that leads to I's block along
/// single-predecessor edges.  Null where none is found.
BasicBlock *activeHandler(Instruction &I) {
  BasicBlock *BB = I.getParent();
  for (unsigned Steps = 0; Steps < 32; ++Steps) {
    BasicBlock *Pred = BB->getSinglePredecessor();
    if (!Pred)
      return nullptr;
    if (auto *II = dyn_cast<InvokeInst>(Pred->getTerminator()))
      return II->getNormalDest() == BB ? II->getUnwindDest() : nullptr;
    BB = Pred;
  }
  return nullptr;
}

/// How a remark names the local A that E ends: its variable (with -g),
/// else its class (a destructor call).
std::string describe(AllocaInst &A, Instruction &E) {
  for (Instruction &I : instructions(*A.getFunction())) {
    // dbg.declare; with assignment tracking (-O1 and up), dbg.assign.
    if (auto *D = dyn_cast<DbgDeclareInst>(&I))
      if (D->getAddress() == &A)
        return ("'" + D->getVariable()->getName() + "'").str();
    if (auto *D = dyn_cast<DbgAssignIntrinsic>(&I))
      if (D->getAddress() == &A)
        return ("'" + D->getVariable()->getName() + "'").str();
    for (DbgVariableRecord &D : filterDbgVars(I.getDbgRecordRange()))
      if ((D.isDbgDeclare() && D.getVariableLocationOp(0) == &A) ||
          (D.isDbgAssign() && D.getAddress() == &A))
        return ("'" + D.getVariable()->getName() + "'").str();
  }
  if (auto *CB = dyn_cast<CallBase>(&E))
    if (Function *Dtor = CB->getCalledFunction()) {
      ItaniumPartialDemangler D;
      std::string Mangled = Dtor->getName().str();
      if (!D.partialDemangle(Mangled.c_str()))
        if (char *Class = D.getFunctionDeclContextName(nullptr, nullptr)) {
          std::string R = std::string("a local ") + Class;
          std::free(Class);
          return R;
        }
    }
  return "a local";
}

/// The analysis and the syncs it adds, for one function.
class LifetimePlan {
public:
  LifetimePlan(Function &F, ArrayRef<SpawnSite> Sites, ArrayRef<CallBase *> Syncs)
      : F(F), Sites(Sites), Syncs(Syncs.begin(), Syncs.end()), Kinds(F) {
    for (const SpawnSite &S : Sites)
      Ignored.insert({S.Begin, S.End, S.Call});
  }
  /// Which locals each task reaches; false if none.
  bool reach();
  /// The ends of life of those locals (and the destructors that use them);
  /// false if none.
  bool events();
  /// The ends of life at which a task that reaches the local may be
  /// outstanding.
  SmallVector<Instruction *, 4> needs() const;
  void insert(ArrayRef<Instruction *> Needs, Function *SyncFn, LifetimeSyncs &Made);

private:
  SmallVector<unsigned, 4> indices(const SmallPtrSetImpl<AllocaInst *> &Set, bool Add);
  struct State {
    BitVector Alive, Pinned, Shared;
    bool operator==(const State &O) const {
      return Alive == O.Alive && Pinned == O.Pinned && Shared == O.Shared;
    }
  };
  void transfer(Instruction &I, State &St, SmallVectorImpl<Instruction *> *Needs) const;
  void syncAtPad(LandingPadInst *LP, Instruction *E, Function *SyncFn, LifetimeSyncs &Made);
  void syncBefore(Instruction *E, Function *SyncFn, LifetimeSyncs &Made);

  Function &F;
  ArrayRef<SpawnSite> Sites;
  SmallPtrSet<const Instruction *, 8> Syncs;
  CalleeKinds Kinds;
  SmallPtrSet<const Instruction *, 8> Ignored;
  /// The locals some task reaches, and their index in the bit vectors.
  SmallVector<AllocaInst *, 8> Tracked;
  DenseMap<AllocaInst *, unsigned> Index;
  struct Reached {
    SmallVector<unsigned, 4> Addr, Shared;
  };
  SmallVector<Reached, 4> ReachOf; ///< by site
  DenseMap<const Instruction *, unsigned> SiteOfEnd;
  struct EndOfLife {
    AllocaInst *Local;
    int Index; ///< in Tracked, or -1
    bool Destructor;
    SmallVector<unsigned, 4> Uses; ///< tracked locals the destructor may use
  };
  DenseMap<const Instruction *, EndOfLife> Ends;
  DenseMap<const Instruction *, unsigned> Starts;
  SmallPtrSet<LandingPadInst *, 4> PadsSynced;
};

SmallVector<unsigned, 4> LifetimePlan::indices(const SmallPtrSetImpl<AllocaInst *> &Set,
                                               bool Add) {
  SmallVector<unsigned, 4> Out;
  for (AllocaInst *A : Set) {
    auto It = Index.find(A);
    if (It == Index.end() && Add) {
      It = Index.try_emplace(A, Tracked.size()).first;
      Tracked.push_back(A);
    }
    if (It != Index.end())
      Out.push_back(It->second);
  }
  return Out;
}

bool LifetimePlan::reach() {
  SmallPtrSet<AllocaInst *, 4> Escaped = escapedAllocas(F);
  for (const SpawnSite &S : Sites) {
    TaskReach R(Kinds, Ignored);
    CallBase *Call = S.Call;
    for (unsigned I = 0; I < Call->arg_size(); ++I) {
      Value *A = Call->getArgOperand(I);
      if (Call->isByValArgument(I))
        R.receivedCopyOf(A);
      else
        R.received(A);
    }
    if (!isa<ConstantPointerNull>(S.Begin->getArgOperand(0)))
      R.dereferences(S.Begin->getArgOperand(0)); // the result
    R.Allocas.insert(Escaped.begin(), Escaped.end());
    ReachOf.push_back({indices(R.Allocas, true), indices(R.Shared, true)});
    SiteOfEnd[S.End] = ReachOf.size() - 1;
  }
  return !Tracked.empty();
}

bool LifetimePlan::events() {
  DenseMap<AllocaInst *, SmallVector<unsigned, 4>> UsesOf;
  for (Instruction &I : instructions(F)) {
    if (AllocaInst *A = endedLocal(I, Kinds)) {
      auto It = Index.find(A);
      bool Dtor = !isa<IntrinsicInst>(I);
      SmallVector<unsigned, 4> Uses;
      if (Dtor) {
        auto [U, New] = UsesOf.try_emplace(A);
        if (New) {
          TaskReach R(Kinds, Ignored);
          R.receivedCopyOf(A);
          R.Allocas.erase(A);
          U->second = indices(R.Allocas, false);
        }
        Uses = U->second;
      }
      if (It != Index.end() || !Uses.empty())
        Ends[&I] = {A, It != Index.end() ? int(It->second) : -1, Dtor, std::move(Uses)};
    } else if (AllocaInst *A = startedLocal(I)) {
      auto It = Index.find(A);
      if (It != Index.end())
        Starts[&I] = It->second;
    }
  }
  return !Ends.empty();
}

/// A reached local is pinned at its spawn if it may be alive there; a
/// sync unpins everything; the end of life of a pinned local needs a sync.
void LifetimePlan::transfer(Instruction &I, State &St,
                            SmallVectorImpl<Instruction *> *Needs) const {
  if (auto It = Starts.find(&I); It != Starts.end())
    St.Alive.set(It->second);
  if (auto It = SiteOfEnd.find(&I); It != SiteOfEnd.end()) {
    for (unsigned A : ReachOf[It->second].Addr)
      if (St.Alive.test(A))
        St.Pinned.set(A);
    for (unsigned A : ReachOf[It->second].Shared)
      if (St.Alive.test(A))
        St.Shared.set(A);
  }
  if (Syncs.count(&I)) {
    St.Pinned.reset();
    St.Shared.reset();
  }
  auto It = Ends.find(&I);
  if (It == Ends.end())
    return;
  const EndOfLife &E = It->second;
  bool Used = E.Index >= 0 && (St.Pinned.test(E.Index) ||
                               (E.Destructor && St.Shared.test(E.Index)));
  for (unsigned U : E.Uses)
    Used |= St.Pinned.test(U);
  if (Used) {
    if (Needs)
      Needs->push_back(&I);
    St.Pinned.reset();
    St.Shared.reset();
  }
  if (E.Index >= 0)
    St.Alive.reset(E.Index);
}

/// Forward, joins are unions (may be alive, may be pinned).
SmallVector<Instruction *, 4> LifetimePlan::needs() const {
  unsigned N = Tracked.size();
  DenseMap<BasicBlock *, State> In;
  State Empty{BitVector(N), BitVector(N), BitVector(N)};
  In[&F.getEntryBlock()] = State{BitVector(N, true), BitVector(N), BitVector(N)};
  ReversePostOrderTraversal<Function *> RPO(&F);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock *BB : RPO) {
      auto It = In.find(BB);
      if (It == In.end())
        continue;
      State St = It->second;
      for (Instruction &I : *BB)
        transfer(I, St, nullptr);
      for (BasicBlock *Succ : successors(BB)) {
        State &S = In.try_emplace(Succ, Empty).first->second;
        State Joined = S;
        Joined.Alive |= St.Alive;
        Joined.Pinned |= St.Pinned;
        Joined.Shared |= St.Shared;
        if (!(Joined == S)) {
          S = std::move(Joined);
          Changed = true;
        }
      }
    }
  }
  SmallVector<Instruction *, 4> Needs;
  for (BasicBlock *BB : RPO) {
    auto It = In.find(BB);
    if (It == In.end())
      continue;
    State St = It->second;
    for (Instruction &I : *BB)
      transfer(I, St, &Needs);
  }
  return Needs;
}

/// On an unwinding path: landingpad; invoke sync -> Cont, unwinding to a
/// copy of the pad (a task's exception) that joins the pad's value in Cont.
void LifetimePlan::syncAtPad(LandingPadInst *LP, Instruction *E, Function *SyncFn,
                             LifetimeSyncs &Made) {
  if (!PadsSynced.insert(LP).second)
    return;
  LLVMContext &Ctx = F.getContext();
  BasicBlock *PadBB = LP->getParent();
  BasicBlock *Cont = SplitBlock(PadBB, LP->getNextNode(), static_cast<DominatorTree *>(nullptr),
                                nullptr, nullptr, "ws.unwind.synced");
  auto *TaskPad = BasicBlock::Create(Ctx, "ws.unwind.task", &F, Cont);
  auto *LP2 = cast<LandingPadInst>(LP->clone());
  LP2->insertInto(TaskPad, TaskPad->end());
  BranchInst::Create(Cont, TaskPad)->setDebugLoc(LP->getDebugLoc());
  PadBB->getTerminator()->eraseFromParent();
  auto *Sync = InvokeInst::Create(SyncFn, Cont, TaskPad, {}, "", PadBB);
  Sync->setDebugLoc(E->getDebugLoc());
  PHINode *Exn = PHINode::Create(LP->getType(), 2, "ws.exn.inflight");
  Exn->insertInto(Cont, Cont->begin());
  LP->replaceUsesWithIf(Exn, [&](Use &U) { return U.getUser() != Exn; });
  Exn->addIncoming(LP, PadBB);
  Exn->addIncoming(LP2, TaskPad);
  Made.Syncs.push_back(Sync);
  Made.Unwinding[Sync] = LP;
}

/// On the normal path, right before E: an invoke where calls in E's scope
/// unwind to a handler (a task's exception then runs the same cleanups).
void LifetimePlan::syncBefore(Instruction *E, Function *SyncFn, LifetimeSyncs &Made) {
  BasicBlock *Handler = F.doesNotThrow() ? nullptr : activeHandler(*E);
  CallBase *Sync;
  if (Handler && !isa<PHINode>(Handler->front())) {
    BasicBlock *BB = E->getParent();
    BasicBlock *Rest = SplitBlock(BB, E, static_cast<DominatorTree *>(nullptr), nullptr,
                                  nullptr, "ws.local.synced");
    BB->getTerminator()->eraseFromParent();
    Sync = InvokeInst::Create(SyncFn, Rest, Handler, {}, "", BB);
  } else {
    Sync = CallInst::Create(SyncFn, "", E->getIterator());
  }
  Sync->setDebugLoc(E->getDebugLoc());
  Made.Syncs.push_back(Sync);
}

void LifetimePlan::insert(ArrayRef<Instruction *> Needs, Function *SyncFn,
                          LifetimeSyncs &Made) {
  // Unwinding paths: the blocks a landing pad's cleanups run in, up to a
  // catch.
  DenseMap<BasicBlock *, SmallVector<LandingPadInst *, 2>> PadsOf;
  if (!F.doesNotThrow())
    for (BasicBlock &BB : F)
      if (auto *LP = dyn_cast<LandingPadInst>(BB.getFirstNonPHI())) {
        SmallVector<BasicBlock *, 8> Work{&BB};
        SmallPtrSet<BasicBlock *, 8> Seen{&BB};
        while (!Work.empty()) {
          BasicBlock *B = Work.pop_back_val();
          if (callsBeginCatch(*B))
            continue;
          PadsOf[B].push_back(LP);
          for (BasicBlock *Succ : successors(B))
            if (!isa<LandingPadInst>(Succ->getFirstNonPHI()) && Seen.insert(Succ).second)
              Work.push_back(Succ);
        }
      }
  for (Instruction *E : Needs) {
    F.getContext().diagnose(
        OptimizationRemarkAnalysis(DEBUG_TYPE, "SyncBeforeEndOfLife", E->getDebugLoc(),
                                   E->getParent())
        << "implicit sync before the end of " << describe(*Ends.find(E)->second.Local, *E)
        << ": a task spawned earlier may still use it");
    auto Pads = PadsOf.find(E->getParent());
    if (Pads == PadsOf.end())
      syncBefore(E, SyncFn, Made);
    else
      for (LandingPadInst *LP : Pads->second)
        syncAtPad(LP, E, SyncFn, Made);
  }
}

} // namespace

LifetimeSyncs addLifetimeSyncs(Function &F, ArrayRef<SpawnSite> Sites,
                               ArrayRef<CallBase *> Syncs, Function *SyncFn) {
  LifetimeSyncs Made;
  LifetimePlan Plan(F, Sites, Syncs);
  if (Plan.reach() && Plan.events())
    Plan.insert(Plan.needs(), SyncFn, Made);
  return Made;
}

} // namespace wsff
