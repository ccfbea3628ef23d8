//===- LocalLifetimes.cpp - Syncs before a reached local dies -------------===//

#include "LocalLifetimes.h"

#include "TaskExceptions.h"
#include "TaskReach.h"
#include "AbiNames.h"
#include "SpawnCall.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
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

/// The llvm.stacksave calls whose value a llvm.stackrestore restores: its
/// operand, or at -O0 what is stored in the slot it is loaded from.
SmallVector<Instruction *, 2> savesOf(IntrinsicInst &Restore) {
  SmallVector<Instruction *, 2> Saves;
  auto IsSave = [](Value *V) {
    auto *II = dyn_cast<IntrinsicInst>(V);
    return II && II->getIntrinsicID() == Intrinsic::stacksave;
  };
  Value *Op = Restore.getArgOperand(0)->stripPointerCasts();
  if (IsSave(Op))
    Saves.push_back(cast<Instruction>(Op));
  else if (auto *L = dyn_cast<LoadInst>(Op))
    if (auto *Slot = dyn_cast<AllocaInst>(L->getPointerOperand()->stripPointerCasts()))
      for (User *U : Slot->users())
        if (auto *St = dyn_cast<StoreInst>(U))
          if (St->getPointerOperand()->stripPointerCasts() == Slot &&
              IsSave(St->getValueOperand()->stripPointerCasts()))
            Saves.push_back(cast<Instruction>(St->getValueOperand()->stripPointerCasts()));
  return Saves;
}

bool isStackRestore(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && II->getIntrinsicID() == Intrinsic::stackrestore;
}

bool callsBeginCatch(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (const Function *Fn = CB->getCalledFunction())
        if (Fn->getName() == "__cxa_begin_catch")
          return true;
  return false;
}

/// Where a sync for the end of life at E goes, and the handler it unwinds
/// to (Handler null: a call, at E).
struct SyncPlace {
  Instruction *Before = nullptr;
  BasicBlock *Handler = nullptr;
};

/// Does the call construct a local object (an sret result, a constructor's
/// this)?  Its own landing pad does not destroy that object.
bool constructsLocal(const CallBase &CB, const CalleeKinds &Kinds) {
  for (unsigned I = 0; I < CB.arg_size(); ++I)
    if (CB.paramHasAttr(I, Attribute::StructRet) &&
        isa<AllocaInst>(getUnderlyingObject(CB.getArgOperand(I))))
      return true;
  CalleeKind K = Kinds.of(CB);
  return (K == CalleeKind::Constructor || K == CalleeKind::CopyOrMove) && CB.arg_size() &&
         isa<AllocaInst>(getUnderlyingObject(CB.getArgOperand(0)));
}

/// A sync before the end of life E unwinds where a call in its scope
/// would: found from the invoke II that leads to E's block along
/// single-predecessor edges, or a call on the way that was an invoke in a
/// spawn (the lowering made it a call, and inlined the macro's helpers,
/// whose invokes went with them: SpawnCall.h, formerUnwindDest).  The
/// objects whose cleanups II's landing pad runs are exactly those alive
/// right before II; between II and E, calls that are not invokes may
/// construct or destroy others (a temporary's destructor, E itself), so the
/// sync moves up to right before II, where its pad is exact.  Earlier is as
/// right (a sync may come anywhere after the spawns it waits for), so it
/// does not move past a spawn: after a spawn that was an invoke it goes
/// right after the spawn, with the spawn's pad.  Where paths meet on the
/// way (a goto out of the scope, a break), each incoming path gets its own
/// sync, placed the same way from the end of its block.  A path where no
/// invoke is found gets a call (at E, or at the end of its block).
class SyncPlacer {
public:
  SyncPlacer(const CalleeKinds &Kinds, ArrayRef<SpawnSite> Sites,
             const DenseMap<const Instruction *, unsigned> &SiteOfEnd)
      : Kinds(Kinds), Sites(Sites), SiteOfEnd(SiteOfEnd) {}

  SmallVector<SyncPlace, 2> place(Instruction &E) {
    SmallVector<SyncPlace, 2> Out;
    Visited.clear();
    walk(E.getParent(), &E, &E, 0, Out);
    return Out;
  }

private:
  /// From before From (null: the end of BB) back; Default is where a call
  /// goes on this path when no handler is found.
  void walk(BasicBlock *BB, Instruction *From, Instruction *Default, unsigned Depth,
            SmallVectorImpl<SyncPlace> &Out) {
    Instruction *AfterSpawn = nullptr; // right after the first spawn on the way
    for (unsigned Steps = 0; Steps < 64; ++Steps) {
      for (Instruction *J = From ? From->getPrevNode() : BB->getTerminator(); J;
           J = J->getPrevNode()) {
        auto Site = SiteOfEnd.find(J);
        if (Site != SiteOfEnd.end()) {
          if (!AfterSpawn)
            AfterSpawn = J->getNextNode();
          CallBase *Call = Sites[Site->second].Call;
          if (BasicBlock *Pad = formerUnwindDest(*Call)) {
            Out.push_back({AfterSpawn, Pad});
            return;
          }
          J = Call; // a spawn that cannot throw: on to the handler of its scope
          continue;
        }
        // Past a spawn, the sync stays after it: the objects made or
        // destroyed on the way would make the pad found inexact.
        if (AfterSpawn)
          if (auto *CB = dyn_cast<CallBase>(J))
            if (constructsLocal(*CB, Kinds) || Kinds.of(*CB) == CalleeKind::Destructor)
              return Out.push_back({Default, nullptr});
      }
      BasicBlock *Pred = BB->getSinglePredecessor();
      if (!Pred) {
        if (AfterSpawn || Depth >= 3 || pred_empty(BB) || !Visited.insert(BB).second)
          return Out.push_back({Default, nullptr});
        for (BasicBlock *P : predecessors(BB)) {
          Instruction *T = P->getTerminator();
          if (auto *II = dyn_cast<InvokeInst>(T))
            Out.push_back({II, II->getUnwindDest()});
          else if (isa<BranchInst, SwitchInst>(T))
            walk(P, nullptr, T, Depth + 1, Out);
          else
            Out.push_back({T, nullptr});
        }
        return;
      }
      if (auto *II = dyn_cast<InvokeInst>(Pred->getTerminator())) {
        if (II->getNormalDest() != BB)
          return Out.push_back({Default, nullptr});
        return Out.push_back({AfterSpawn ? AfterSpawn : II, II->getUnwindDest()});
      }
      BB = Pred;
      From = nullptr;
    }
    Out.push_back({Default, nullptr});
  }

  const CalleeKinds &Kinds;
  ArrayRef<SpawnSite> Sites;
  const DenseMap<const Instruction *, unsigned> &SiteOfEnd;
  SmallPtrSet<BasicBlock *, 8> Visited;
};

/// How a remark names the local A that E ends: its variable (with -g),
/// else its class (a destructor call) or its cleanup function.
std::string describeLocal(AllocaInst &A, Instruction &E) {
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
  if (auto *CB = dyn_cast<CallBase>(&E); CB && !isa<IntrinsicInst>(CB))
    if (Function *Dtor = CB->getCalledFunction()) {
      ItaniumPartialDemangler D;
      std::string Mangled = Dtor->getName().str();
      if (D.partialDemangle(Mangled.c_str()))
        return "a local cleaned up by " + Mangled; // __attribute__((cleanup))
      if (char *Class = D.getFunctionDeclContextName(nullptr, nullptr)) {
        std::string R = std::string("a local ") + Class;
        std::free(Class);
        return R;
      }
    }
  return "a local";
}

/// The analysis and the syncs it adds, for one function.  The objects it
/// follows are locals (allocas, static or variable-length) and, once the
/// spawns are outlined, the frame blocks that spawns in a loop allocate on
/// the stack (a site's end marker stands for its block).
class LifetimePlan {
public:
  LifetimePlan(Function &F, ArrayRef<SpawnSite> Sites, ArrayRef<CallBase *> Syncs)
      : F(F), Sites(Sites), Syncs(Syncs.begin(), Syncs.end()), Kinds(F), DT(F) {
    for (const SpawnSite &S : Sites) {
      Ignored.insert({S.Begin, S.End, S.Call});
      // What follows the spawned call up to the end marker moves into the
      // task: the ends of life there (its sret temporary's destructor) are
      // the task's own, never a place for the parent to sync.
      for (Instruction *I = S.Call->getNextNode(); I && I != S.End; I = I->getNextNode())
        InTask.insert(I);
    }
  }
  /// Which locals each task reaches; false if none.
  bool reach();
  /// The frame blocks of the spawns that allocate one at the spawn (in a
  /// loop, arguments that do not fit the slot); false if none.
  bool reachFrames();
  /// The ends of life of what is followed (and the destructors that use
  /// those locals); false if none.
  bool events();
  void rewrites();
  /// The ends of life at which a task that reaches the object may be
  /// outstanding.
  SmallVector<Instruction *, 4> needs() const;
  void insert(ArrayRef<Instruction *> Needs, Function *SyncFn, LifetimeSyncs &Made);

private:
  unsigned track(Instruction *Object);
  SmallVector<unsigned, 4> indices(const SmallPtrSetImpl<AllocaInst *> &Set, bool Add);
  /// Lives on the stack from where it is made to a stackrestore (a
  /// variable-length array, a frame block)?
  bool isDynamic(const Instruction *Object) const {
    auto *A = dyn_cast<AllocaInst>(Object);
    return !A || !A->isStaticAlloca();
  }
  struct State {
    BitVector Alive, Pinned, Shared;
    bool operator==(const State &O) const {
      return Alive == O.Alive && Pinned == O.Pinned && Shared == O.Shared;
    }
  };
  void transfer(Instruction &I, State &St, SmallVectorImpl<Instruction *> *Needs) const;
  std::string describe(Instruction &E) const;
  void syncAtPad(LandingPadInst *LP, Instruction *E, Function *SyncFn, LifetimeSyncs &Made);
  void syncBefore(Instruction *E, Function *SyncFn, LifetimeSyncs &Made);

  Function &F;
  ArrayRef<SpawnSite> Sites;
  SmallPtrSet<const Instruction *, 8> Syncs;
  CalleeKinds Kinds;
  DominatorTree DT;
  SmallPtrSet<const Instruction *, 8> Ignored;
  SmallPtrSet<const Instruction *, 8> InTask;
  /// The objects some task reaches, and their index in the bit vectors.
  SmallVector<Instruction *, 8> Tracked;
  DenseMap<Instruction *, unsigned> Index;
  struct Reached {
    SmallVector<unsigned, 4> Addr, Shared;
  };
  SmallVector<Reached, 4> ReachOf; ///< by site
  DenseMap<const Instruction *, unsigned> SiteOfEnd;
  struct EndOfLife {
    AllocaInst *Local; ///< null at a stackrestore
    int Index; ///< in Tracked, or -1
    bool Destructor;
    SmallVector<unsigned, 4> Uses; ///< tracked locals the destructor may use
    SmallVector<unsigned, 2> Freed; ///< dynamic objects a stackrestore frees
    bool FreesFrame = false;
    /// A write of the function's own to a local clang gave no lifetime
    /// markers (rewrites()): the local goes on living.
    bool Rewrite = false;
  };
  DenseMap<const Instruction *, EndOfLife> Ends;
  DenseMap<const Instruction *, SmallVector<unsigned, 1>> Starts;
  SmallPtrSet<LandingPadInst *, 4> PadsSynced;
};

unsigned LifetimePlan::track(Instruction *Object) {
  auto [It, New] = Index.try_emplace(Object, Tracked.size());
  if (New)
    Tracked.push_back(Object);
  return It->second;
}

SmallVector<unsigned, 4> LifetimePlan::indices(const SmallPtrSetImpl<AllocaInst *> &Set,
                                               bool Add) {
  SmallVector<unsigned, 4> Out;
  for (AllocaInst *A : Set) {
    if (Add) {
      Out.push_back(track(A));
      continue;
    }
    auto It = Index.find(A);
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

bool LifetimePlan::reachFrames() {
  for (const SpawnSite &S : Sites) {
    Reached R;
    if (S.InFrame && S.DynamicFrame) {
      R.Addr.push_back(track(S.End));
      Starts[S.End].push_back(R.Addr.back());
    }
    ReachOf.push_back(R);
    SiteOfEnd[S.End] = ReachOf.size() - 1;
  }
  return !Tracked.empty();
}

bool LifetimePlan::events() {
  DenseMap<AllocaInst *, SmallVector<unsigned, 4>> UsesOf;
  for (Instruction &I : instructions(F)) {
    if (InTask.count(&I))
      continue;
    if (isStackRestore(I)) {
      // It frees what was put on the stack after the stack pointer it
      // restores was saved: the objects its saves dominate.
      EndOfLife E{nullptr, -1, false, {}, {}};
      for (Instruction *Save : savesOf(cast<IntrinsicInst>(I)))
        for (unsigned Idx = 0; Idx < Tracked.size(); ++Idx)
          if (isDynamic(Tracked[Idx]) && DT.dominates(Save, Tracked[Idx]) &&
              !is_contained(E.Freed, Idx)) {
            E.Freed.push_back(Idx);
            E.FreesFrame |= !isa<AllocaInst>(Tracked[Idx]);
          }
      if (!E.Freed.empty())
        Ends[&I] = std::move(E);
    } else if (AllocaInst *A = endedLocal(I, Kinds)) {
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
        Ends[&I] = {A, It != Index.end() ? int(It->second) : -1, Dtor, std::move(Uses), {}};
    } else if (AllocaInst *A = startedLocal(I)) {
      auto It = Index.find(A);
      if (It != Index.end())
        Starts[&I].push_back(It->second);
    } else if (auto *A = dyn_cast<AllocaInst>(&I); A && !A->isStaticAlloca()) {
      // A variable-length array lives from here (each time round a loop).
      auto It = Index.find(A);
      if (It != Index.end())
        Starts[&I].push_back(It->second);
    }
  }
  rewrites();
  return !Ends.empty();
}

/// clang emits no lifetime markers in a function with a computed goto
/// (any label may be jumped to, so it gives up on scopes: VarBypassDetector),
/// and a loop body's array is then one slot that each iteration's new
/// array reuses, with no end of life between them.  For a local a task
/// reaches and that has no markers, each write of the function's own is
/// treated as a possible start of its next life: a sync before it where
/// a task that reaches the local may be outstanding.  The serial elision's
/// semantics either way: a write to what an outstanding task reads was a
/// race in the source unless it began a new variable.
void LifetimePlan::rewrites() {
  if (none_of(F, [](BasicBlock &BB) { return isa<IndirectBrInst>(BB.getTerminator()); }))
    return;
  for (unsigned Idx = 0; Idx < Tracked.size(); ++Idx) {
    auto *A = dyn_cast<AllocaInst>(Tracked[Idx]);
    if (!A || !A->isStaticAlloca())
      continue;
    SmallVector<Instruction *, 8> Writes;
    SmallVector<Value *, 8> Work{A};
    SmallPtrSet<Value *, 8> Seen{A};
    bool Marked = false;
    while (!Work.empty()) {
      Value *P = Work.pop_back_val();
      for (User *U : P->users()) {
        auto *I = dyn_cast<Instruction>(U);
        if (!I || InTask.count(I) || Ignored.count(I))
          continue;
        if (auto *II = dyn_cast<IntrinsicInst>(I); II && II->isLifetimeStartOrEnd()) {
          Marked = true;
        } else if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode, SelectInst>(I)) {
          if (Seen.insert(I).second)
            Work.push_back(I);
        } else if (auto *St = dyn_cast<StoreInst>(I)) {
          if (St->getPointerOperand() == P)
            Writes.push_back(I);
        } else if (auto *CB = dyn_cast<CallBase>(I)) {
          if (!isa<DbgInfoIntrinsic>(CB) && !CB->onlyReadsMemory() &&
              !(isa<MemTransferInst>(CB) && CB->getArgOperand(0) != P))
            Writes.push_back(I);
        }
      }
    }
    if (Marked)
      continue;
    for (Instruction *W : Writes)
      if (!Ends.count(W))
        Ends[W] = {A, int(Idx), false, {}, {}, false, true};
  }
}

/// A reached object is pinned at its spawn if it may be alive there; a
/// sync unpins everything; the end of life of a pinned one needs a sync.
void LifetimePlan::transfer(Instruction &I, State &St,
                            SmallVectorImpl<Instruction *> *Needs) const {
  if (auto It = Starts.find(&I); It != Starts.end())
    for (unsigned A : It->second)
      St.Alive.set(A);
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
  for (unsigned U : E.Freed)
    Used |= St.Pinned.test(U);
  if (Used) {
    if (Needs)
      Needs->push_back(&I);
    St.Pinned.reset();
    St.Shared.reset();
  }
  if (E.Index >= 0 && !E.Rewrite)
    St.Alive.reset(E.Index);
  for (unsigned U : E.Freed)
    St.Alive.reset(U);
}

/// How the remark names what E ends.
std::string LifetimePlan::describe(Instruction &E) const {
  const EndOfLife &End = Ends.find(&E)->second;
  if (End.Rewrite)
    return "a write to " + describeLocal(*End.Local, E) +
           " (in a function with a computed goto clang marks no local's end "
           "of life: a write may begin the next one)";
  if (End.Local)
    return "the end of " + describeLocal(*End.Local, E);
  return End.FreesFrame ? "the end of a variable-length array's scope (it frees "
                          "the arguments of the tasks spawned in it)"
                        : "the end of a variable-length array's scope";
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

/// On an unwinding path: a sync at the start of the landing pad
/// (TaskExceptions.h, syncAtLandingPad), once per pad.
void LifetimePlan::syncAtPad(LandingPadInst *LP, Instruction *E, Function *SyncFn,
                             LifetimeSyncs &Made) {
  if (!PadsSynced.insert(LP).second)
    return;
  InvokeInst *Sync = syncAtLandingPad(*LP, SyncFn, E->getDebugLoc());
  Made.Syncs.push_back(Sync);
  Made.Unwinding[Sync] = LP;
}

/// On the normal path, right before E: an invoke where calls in E's scope
/// unwind to a handler (a task's exception then runs the same cleanups).
void LifetimePlan::syncBefore(Instruction *E, Function *SyncFn, LifetimeSyncs &Made) {
  // Also in a function that does not throw: a noexcept function may catch
  // its tasks' exceptions (a terminate pad, where it does not, is right too).
  SyncPlacer Placer(Kinds, Sites, SiteOfEnd);
  SmallPtrSet<Instruction *, 4> Done;
  for (SyncPlace At : Placer.place(*E)) {
    if (!Done.insert(At.Before).second)
      continue;
    CallBase *Sync;
    BasicBlock *Handler = At.Handler;
    bool PlainHandler = !Handler || !isa<PHINode>(Handler->front());
    // Right before a C++ destructor: a task's exception there must destroy
    // the object too (seed 242 case 122 of the smith campaign: a
    // temporary's destructor skipped).  Not out of a function that does not
    // throw (there a task's exception ends the program, as before), nor for
    // C's cleanup functions (C code has no C++ personality to unwind with).
    if (auto *Destroy = dyn_cast<CallInst>(E);
        Destroy && At.Before == E && PlainHandler && (Handler || !F.doesNotThrow()) &&
        Kinds.of(*Destroy) == CalleeKind::Destructor && Destroy->getCalledFunction() &&
        Destroy->getCalledFunction()->getName().starts_with("_Z"))
      Handler = destroyingPad(*Destroy, Handler);
    if (Handler && !isa<PHINode>(Handler->front())) {
      BasicBlock *BB = At.Before->getParent();
      BasicBlock *Rest = SplitBlock(BB, At.Before, static_cast<DominatorTree *>(nullptr),
                                    nullptr, nullptr, "ws.local.synced");
      BB->getTerminator()->eraseFromParent();
      Sync = InvokeInst::Create(SyncFn, Rest, Handler, {}, "", BB);
    } else {
      Sync = CallInst::Create(SyncFn, "", At.Before->getIterator());
    }
    Sync->setDebugLoc(E->getDebugLoc());
    Made.Syncs.push_back(Sync);
  }
}

void LifetimePlan::insert(ArrayRef<Instruction *> Needs, Function *SyncFn,
                          LifetimeSyncs &Made) {
  // Unwinding paths: the blocks a landing pad's cleanups run in, up to a
  // catch.
  DenseMap<BasicBlock *, SmallVector<LandingPadInst *, 2>> PadsOf;
  // (A noexcept function has them too where it catches.)
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
        << "implicit sync before " << describe(*E)
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

LifetimeSyncs addFrameSyncs(Function &F, ArrayRef<SpawnSite> Sites,
                            ArrayRef<CallBase *> Syncs, Function *SyncFn) {
  LifetimeSyncs Made;
  LifetimePlan Plan(F, Sites, Syncs);
  if (Plan.reachFrames() && Plan.events())
    Plan.insert(Plan.needs(), SyncFn, Made);
  return Made;
}

} // namespace wsff
