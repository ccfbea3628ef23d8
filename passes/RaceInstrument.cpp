//===- RaceInstrument.cpp - -fws-race: the accesses a run checks ----------===//

#include "RaceInstrument.h"

#include "AbiNames.h"
#include "RaceResults.h"
#include "SpawnCall.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/EscapeEnumerator.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#define DEBUG_TYPE "ws-race-instrument"

using namespace llvm;

namespace wsff {
namespace {

/// One memory access of the program's code to check: Size bytes at Ptr,
/// made by I (a load, a store, or a memory intrinsic's source or
/// destination).
struct Access {
  Instruction *I;
  Value *Ptr;
  Value *Size; ///< bytes: a constant, or a memory intrinsic's length
  bool Write;
};

/// A loop's accesses checked once, before it: Count accesses of Size
/// bytes, Stride bytes apart, from Start.
struct Strided {
  Loop *L;
  Access A;
  const SCEV *Start, *Stride, *Count;
};

/// The entry points (ws/race_abi.def).
struct RaceAbi {
  FunctionCallee Read[5], Write[5]; // 1, 2, 4, 8, 16 bytes
  FunctionCallee ReadN, WriteN, ReadStrided, WriteStrided;
  FunctionCallee FuncEntry, FuncExit, StackRestored;

  explicit RaceAbi(Module &M) {
    LLVMContext &Ctx = M.getContext();
    Type *Void = Type::getVoidTy(Ctx), *Ptr = PointerType::getUnqual(Ctx);
    Type *I64 = Type::getInt64Ty(Ctx);
    for (unsigned K = 0; K < 5; ++K) {
      std::string N = std::to_string(1u << K);
      Read[K] = M.getOrInsertFunction((RaceReadName + N).str(), Void, Ptr);
      Write[K] = M.getOrInsertFunction((RaceWriteName + N).str(), Void, Ptr);
    }
    ReadN = M.getOrInsertFunction(RaceReadNName, Void, Ptr, I64);
    WriteN = M.getOrInsertFunction(RaceWriteNName, Void, Ptr, I64);
    ReadStrided = M.getOrInsertFunction(RaceReadStridedName, Void, Ptr, I64, I64, I64);
    WriteStrided = M.getOrInsertFunction(RaceWriteStridedName, Void, Ptr, I64, I64, I64);
    FuncEntry = M.getOrInsertFunction(RaceFuncEntryName, Void, Ptr);
    FuncExit = M.getOrInsertFunction(RaceFuncExitName, Void);
    StackRestored = M.getOrInsertFunction(RaceStackRestoredName, Void);
  }
};

bool isRaceCall(const Function *Fn) {
  return Fn && Fn->getName().starts_with("__ws_race_");
}

/// Calls that cannot spawn, sync or run the program's code: intrinsics
/// (a memory intrinsic is an access, checked as such) and our own checks.
bool isTransparent(const CallBase &CB) {
  return isa<IntrinsicInst>(CB) || isRaceCall(CB.getCalledFunction());
}

/// The checks of one function.
class FunctionChecks {
public:
  FunctionChecks(Function &F, const RaceAbi &Abi, FunctionAnalysisManager &FAM,
                 const UncheckedResults &Results)
      : F(F), Abi(Abi), Results(Results), DT(FAM.getResult<DominatorTreeAnalysis>(F)),
        LI(FAM.getResult<LoopAnalysis>(F)), SE(FAM.getResult<ScalarEvolutionAnalysis>(F)),
        DL(F.getDataLayout()) {}

  /// Inserts the checks; the number of checks it inserted.
  unsigned run();

private:
  bool mayRace(Value *Ptr);
  void collect();
  void dropRepeated();
  void mergeAdjacent();
  struct StrandRuns {
    DenseMap<const Instruction *, std::pair<unsigned, unsigned>> Where;
    DenseMap<std::pair<BasicBlock *, unsigned>, SmallVector<unsigned, 4>> Runs;
  };
  StrandRuns strandRuns() const;
  void dropMarked(ArrayRef<bool> Marked);
  void hoistLoops();
  void emit(const Access &A, IRBuilder<> &B);
  void emitStrided(const Strided &S);

  Function &F;
  const RaceAbi &Abi;
  const UncheckedResults &Results;
  DominatorTree &DT;
  LoopInfo &LI;
  ScalarEvolution &SE;
  const DataLayout &DL;
  DenseMap<const Value *, bool> Reachable; ///< by object: may another strand touch it?
  SmallVector<Access, 32> Accesses;
  SmallVector<Strided, 8> Hoisted;
};

bool mayBeCaptured(const Value *V);

/// Can memory at Ptr be touched by a strand other than the one that runs
/// this access?  Not a local whose address never leaves the function (the
/// object's, whatever element is accessed), nor constant data.
bool FunctionChecks::mayRace(Value *Ptr) {
  const Value *Obj = getUnderlyingObject(Ptr, /*MaxLookup=*/0);
  auto [It, New] = Reachable.try_emplace(Obj, true);
  if (!New)
    return It->second;
  bool R = true;
  if (auto *CB = dyn_cast<CallBase>(Obj); CB && isCallTo(*CB, RaceOwnName))
    R = false; // the runtime's memory (ws/race_abi.def)
  else if (auto *GV = dyn_cast<GlobalVariable>(Obj))
    R = !GV->isConstant();
  else if (isa<AllocaInst>(Obj))
    R = !Results.Objects.count(Obj) && mayBeCaptured(Obj);
  return Reachable[Obj] = R;
}

/// Does V's address leave the function?  As PointerMayBeCaptured, except
/// that the lowering's marks (__ws_race_own, which returns its argument
/// and is removed after the checks) pass the address through: a spawn's
/// result local that travels as a value has its stores at the sync marked,
/// and did count as captured, so fib's `a` was checked after every sync
/// (a strand and a call stack per call).
bool mayBeCaptured(const Value *V) {
  struct Tracker : CaptureTracker {
    bool Captured = false;
    void tooManyUses() override { Captured = true; }
    bool captured(const Use *U) override {
      if (auto *CB = dyn_cast<CallBase>(U->getUser());
          CB && isCallTo(*CB, RaceOwnName) && U->getOperandNo() == 0 && !mayBeCaptured(CB))
        return false;
      Captured = true;
      return true;
    }
  } T;
  PointerMayBeCaptured(V, &T);
  return T.Captured;
}

void FunctionChecks::collect() {
  LLVMContext &Ctx = F.getContext();
  auto Bytes = [&](Type *T) {
    return ConstantInt::get(Type::getInt64Ty(Ctx), DL.getTypeStoreSize(T).getFixedValue());
  };
  for (Instruction &I : instructions(F)) {
    if (I.hasMetadata(LLVMContext::MD_nosanitize))
      continue;
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      if (!L->isAtomic() && mayRace(L->getPointerOperand()))
        Accesses.push_back({L, L->getPointerOperand(), Bytes(L->getType()), false});
    } else if (auto *S = dyn_cast<StoreInst>(&I)) {
      if (S->hasMetadata(ResultWriteMD) && Results.Bodies.count(&F))
        continue; // a task's result, in an object no check needs (RaceResults.h)
      if (!S->isAtomic() && mayRace(S->getPointerOperand()))
        Accesses.push_back({S, S->getPointerOperand(),
                            Bytes(S->getValueOperand()->getType()), true});
    } else if (auto *M = dyn_cast<MemIntrinsic>(&I)) {
      Value *Len = M->getLength();
      if (auto *T = dyn_cast<MemTransferInst>(M))
        if (mayRace(T->getRawSource()))
          Accesses.push_back({M, T->getRawSource(), Len, false});
      if (mayRace(M->getRawDest()))
        Accesses.push_back({M, M->getRawDest(), Len, true});
    }
  }
}

/// Position in the block, and the calls before it: accesses with the same
/// count of calls before them run in one strand, uninterrupted; grouped so
/// by block (Runs: indices into Accesses).
FunctionChecks::StrandRuns FunctionChecks::strandRuns() const {
  StrandRuns SR;
  for (BasicBlock &BB : F) {
    unsigned N = 0, Calls = 0;
    for (Instruction &I : BB) {
      if (auto *CB = dyn_cast<CallBase>(&I); CB && !isTransparent(*CB))
        ++Calls;
      SR.Where[&I] = {Calls, N++};
    }
  }
  for (unsigned I = 0; I < Accesses.size(); ++I)
    SR.Runs[{Accesses[I].I->getParent(), SR.Where[Accesses[I].I].first}].push_back(I);
  return SR;
}

/// Accesses without the ones marked.
void FunctionChecks::dropMarked(ArrayRef<bool> Marked) {
  SmallVector<Access, 32> Kept;
  for (unsigned I = 0; I < Accesses.size(); ++I)
    if (!Marked[I])
      Kept.push_back(Accesses[I]);
  Accesses = std::move(Kept);
}

/// In a block, with no call between: a second access of bytes already
/// checked needs no check of its own (a read after a read or a write, a
/// write after a write), nor does a read of bytes written later (the
/// write's check finds what the read's would: at least one race per
/// location, docs/race.md).
void FunctionChecks::dropRepeated() {
  StrandRuns SR = strandRuns();
  auto &Where = SR.Where;
  auto Covers = [](const Access &B, const Access &A) {
    auto *SB = dyn_cast<ConstantInt>(B.Size), *SA = dyn_cast<ConstantInt>(A.Size);
    return B.Ptr == A.Ptr && SB && SA && SB->getZExtValue() >= SA->getZExtValue();
  };
  SmallVector<bool, 32> Dropped(Accesses.size(), false);
  for (auto &[Key, Run] : SR.Runs) {
    if (Run.size() < 2 || Run.size() > 256)
      continue;
    for (unsigned I : Run) {
      const Access &A = Accesses[I];
      unsigned PosA = Where[A.I].second;
      for (unsigned J : Run) {
        const Access &B = Accesses[J];
        unsigned PosB = Where[B.I].second;
        if (I == J || !Covers(B, A))
          continue;
        bool Before = PosB < PosA || (PosB == PosA && J < I);
        if ((Before && (B.Write || !A.Write)) || (!Before && B.Write && !A.Write)) {
          Dropped[I] = true;
          break;
        }
      }
    }
  }
  dropMarked(Dropped);
}

/// In a block, with no call between, on one source line: reads (or
/// writes) of adjacent bytes off one base are one check of their union (a
/// structure's two fields: knapsack's e->weight and e->value).  The same
/// bytes are checked, by the same strand; a report names the line, as the
/// two checks' would.  The union is 2, 4 or 8 bytes, checked where the
/// later of the two is (both addresses are known there).
void FunctionChecks::mergeAdjacent() {
  StrandRuns SR = strandRuns();
  auto &Where = SR.Where;
  struct Piece {
    const Value *Base;
    int64_t Off;
    uint64_t Size;
  };
  auto PieceOf = [&](const Access &A, Piece &P) {
    auto *C = dyn_cast<ConstantInt>(A.Size);
    if (!C || (!isa<LoadInst>(A.I) && !isa<StoreInst>(A.I)))
      return false;
    P.Size = C->getZExtValue();
    P.Base = GetPointerBaseWithConstantOffset(A.Ptr, P.Off, DL);
    return P.Base != nullptr;
  };
  auto Line = [](const Instruction *I) {
    const DebugLoc &L = I->getDebugLoc();
    return L ? L.getLine() : 0u;
  };
  SmallVector<bool, 32> Gone(Accesses.size(), false);
  for (auto &[Key, Run] : SR.Runs) {
    if (Run.size() < 2 || Run.size() > 256)
      continue;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (unsigned I : Run) {
        Piece PA;
        if (Gone[I] || !PieceOf(Accesses[I], PA))
          continue;
        for (unsigned J : Run) {
          Piece PB;
          Access &A = Accesses[I], &B = Accesses[J];
          if (I == J || Gone[J] || A.Write != B.Write || !Line(A.I) ||
              Line(A.I) != Line(B.I) || !PieceOf(B, PB) || PA.Base != PB.Base ||
              PA.Off + (int64_t)PA.Size != PB.Off)
            continue;
          uint64_t N = PA.Size + PB.Size;
          // Within a granule (8 bytes), as most are: a check across two
          // takes the runtime's slower path for ranges (skynet's sum[i]
          // and sum[i + 1] were better checked apart).
          if (!isPowerOf2_64(N) || N > 8)
            continue;
          // A is below B: the union is A's address, checked at the later.
          A = Access{Where[A.I].second > Where[B.I].second ? A.I : B.I, A.Ptr,
                     ConstantInt::get(A.Size->getType(), N), A.Write};
          Gone[J] = true;
          Changed = true;
          break;
        }
      }
    }
  }
  dropMarked(Gone);
}

/// An innermost loop without calls, entered through a preheader, left only
/// at its latch after a number of iterations known on entry: an access
/// made every iteration, at an address that is the same each time or moves
/// by a constant stride, is checked once before the loop, for all of them.
void FunctionChecks::hoistLoops() {
  DenseMap<Loop *, bool> Plain;
  auto IsPlain = [&](Loop *L) {
    auto [It, New] = Plain.try_emplace(L, false);
    if (!New)
      return It->second;
    if (!L->isInnermost() || !L->getLoopPreheader() || !L->getLoopLatch() ||
        L->getExitingBlock() != L->getLoopLatch())
      return false;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (auto *CB = dyn_cast<CallBase>(&I); CB && !isTransparent(*CB) &&
                                               !isa<MemIntrinsic>(CB))
          return false;
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(BTC) ||
        !SE.isLoopInvariant(BTC, L))
      return false;
    return It->second = true;
  };
  SmallVector<Access, 32> Kept;
  for (const Access &A : Accesses) {
    Loop *L = LI.getLoopFor(A.I->getParent());
    auto *Size = dyn_cast<ConstantInt>(A.Size);
    if (!L || !Size || !IsPlain(L) || !DT.dominates(A.I->getParent(), L->getLoopLatch())) {
      Kept.push_back(A);
      continue;
    }
    const SCEV *P = SE.getSCEV(A.Ptr);
    Type *I64 = Type::getInt64Ty(F.getContext());
    const SCEV *Count = SE.getAddExpr(
        SE.getTruncateOrZeroExtend(SE.getBackedgeTakenCount(L), I64), SE.getOne(I64));
    const SCEV *Start = nullptr, *Stride = nullptr;
    if (SE.isLoopInvariant(P, L)) {
      Start = P;
      Stride = SE.getZero(I64);
      Count = SE.getOne(I64);
    } else if (auto *AR = dyn_cast<SCEVAddRecExpr>(P);
               AR && AR->getLoop() == L && AR->isAffine() &&
               isa<SCEVConstant>(AR->getStepRecurrence(SE)) &&
               SE.isLoopInvariant(AR->getStart(), L)) {
      Start = AR->getStart();
      Stride = SE.getTruncateOrSignExtend(AR->getStepRecurrence(SE), I64);
    }
    SCEVExpander Check(SE, DL, "ws.race");
    Instruction *At = L->getLoopPreheader()->getTerminator();
    if (!Start || !Check.isSafeToExpandAt(Start, At) || !Check.isSafeToExpandAt(Count, At)) {
      Kept.push_back(A);
      continue;
    }
    Hoisted.push_back({L, A, Start, Stride, Count});
  }
  Accesses = std::move(Kept);
}

void FunctionChecks::emit(const Access &A, IRBuilder<> &B) {
  B.SetInsertPoint(A.I);
  if (auto *C = dyn_cast<ConstantInt>(A.Size)) {
    uint64_t N = C->getZExtValue();
    if (N && N <= 16 && isPowerOf2_64(N)) {
      unsigned K = Log2_64(N);
      B.CreateCall(A.Write ? Abi.Write[K] : Abi.Read[K], {A.Ptr});
      return;
    }
  }
  B.CreateCall(A.Write ? Abi.WriteN : Abi.ReadN,
               {A.Ptr, B.CreateZExtOrTrunc(A.Size, B.getInt64Ty())});
}

void FunctionChecks::emitStrided(const Strided &S) {
  Instruction *At = S.L->getLoopPreheader()->getTerminator();
  SCEVExpander Check(SE, DL, "ws.race");
  Type *I64 = Type::getInt64Ty(F.getContext());
  Value *Start = Check.expandCodeFor(S.Start, S.Start->getType(), At);
  Value *Stride = Check.expandCodeFor(S.Stride, I64, At);
  Value *Count = Check.expandCodeFor(S.Count, I64, At);
  IRBuilder<> B(At);
  B.SetCurrentDebugLocation(S.A.I->getDebugLoc());
  if (S.Stride->isZero()) { // the same bytes each time round
    Access Once = S.A;
    Once.Ptr = Start;
    Once.I = At;
    emit(Once, B);
    return;
  }
  B.CreateCall(S.A.Write ? Abi.WriteStrided : Abi.ReadStrided,
               {Start, B.CreateZExtOrTrunc(S.A.Size, I64), Stride, Count});
}

unsigned FunctionChecks::run() {
  collect();
  dropRepeated();
  mergeAdjacent();
  hoistLoops();
  IRBuilder<> B(F.getContext());
  for (const Access &A : Accesses)
    emit(A, B);
  for (const Strided &S : Hoisted)
    emitStrided(S);
  // The end of a variable-length array's scope: the stack it frees may be
  // a later strand's (a child run at the sync, on the same stack).
  SmallVector<Instruction *, 4> Restores;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->getIntrinsicID() == Intrinsic::stackrestore)
      Restores.push_back(II);
  for (Instruction *R : Restores)
    IRBuilder<>(R->getNextNode()).CreateCall(Abi.StackRestored);
  return Accesses.size() + Hoisted.size() + Restores.size();
}

/// The calls of a child's begin and end in F, with the phis that carry the
/// begin's result to an end (a landing pad's, reached from several
/// children); false if a result goes anywhere else.  A begin pushes a
/// procedure that only its end pops (hooks.c), so the two go together or
/// not at all: a begin left behind because its result also reached a
/// phi (seed 237 case 91, docs/smith.md) made every later strand of the
/// run a level too deep, and a read after a sync was told parallel with
/// the writes before it.
bool childHooks(Function &F, SmallVectorImpl<Instruction *> &Hooks) {
  auto IsCallTo = [](const Value *V, StringRef Name) {
    auto *CB = dyn_cast<CallBase>(V);
    Function *Fn = CB ? CB->getCalledFunction() : nullptr;
    return Fn && Fn->getName() == Name;
  };
  SmallPtrSet<Instruction *, 16> Seen;
  for (Instruction &I : instructions(F)) {
    if (!IsCallTo(&I, ChildBeginName) && !IsCallTo(&I, ChildEndName))
      continue;
    SmallVector<Instruction *, 8> Work{&I};
    while (!Work.empty()) {
      Instruction *V = Work.pop_back_val();
      if (!Seen.insert(V).second)
        continue;
      Hooks.push_back(V);
      for (User *U : V->users()) {
        auto *UI = cast<Instruction>(U);
        if (!isa<PHINode>(UI) && !IsCallTo(UI, ChildEndName))
          return false;
        Work.push_back(UI);
      }
    }
  }
  return true;
}

/// Is F's run a strand of its own to SP-bags, worth its hooks?  Not when
/// nothing it runs is checked: every call it makes is to an intrinsic, to
/// the runtime's own entry points, to an allocation function, or to a
/// function of the module that is itself check-free.
class CheckFree {
public:
  CheckFree(Module &M, const DenseMap<Function *, unsigned> &Checks,
            function_ref<const TargetLibraryInfo &(Function &)> TLI) {
    SmallVector<Instruction *, 8> Hooks;
    for (auto &[F, N] : Checks)
      if (N == 0 && childHooks(*F, Hooks))
        Free.insert(F);
    // The greatest set closed under calls: drop what calls outside it
    // until nothing is dropped (recursion stays in).
    for (bool Changed = true; Changed;) {
      SmallVector<Function *, 8> Out;
      for (Function *F : Free)
        if (!callsOnlyFree(*F, TLI(*F)))
          Out.push_back(F);
      for (Function *F : Out)
        Free.remove(F);
      Changed = !Out.empty();
    }
  }
  bool count(Function *F) const { return Free.count(F); }

private:
  bool callsOnlyFree(Function &F, const TargetLibraryInfo &TLI) {
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->isInlineAsm() || isTransparent(*CB))
        continue;
      Function *Callee = CB->getCalledFunction();
      if (!Callee)
        return false;
      if (Free.count(Callee) || Callee->isIntrinsic() || abiCallEffect(Callee->getName()))
        continue;
      LibFunc LF;
      if (Callee->isDeclaration() && TLI.getLibFunc(*Callee, LF) && TLI.has(LF) &&
          isAllocation(LF))
        continue;
      return false;
    }
    return true;
  }
  static bool isAllocation(LibFunc LF) {
    switch (LF) {
    case LibFunc_malloc:
    case LibFunc_calloc:
    case LibFunc_free:
    case LibFunc_Znwm:
    case LibFunc_Znam:
    case LibFunc_ZdlPv:
    case LibFunc_ZdaPv:
    case LibFunc_ZdlPvm:
    case LibFunc_ZdaPvm:
      return true;
    default:
      return false;
    }
  }
  SetVector<Function *> Free;
};

/// Every way out of a checked function, unwinding included, calls the exit.
void addEntryAndExits(Function &F, const RaceAbi &Abi) {
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  Value *Caller = B.CreateIntrinsic(Intrinsic::returnaddress, {}, {B.getInt32(0)});
  B.CreateCall(Abi.FuncEntry, {Caller});
  EscapeEnumerator Exits(F, "ws.race.cleanup", /*HandleExceptions=*/true);
  while (IRBuilder<> *At = Exits.Next())
    At->CreateCall(Abi.FuncExit);
}

/// A check-free function's hooks go: SP-bags never needs its strands.
void dropHooks(Function &F) {
  SmallVector<Instruction *, 8> Hooks;
  bool Paired = childHooks(F, Hooks);
  assert(Paired && "CheckFree keeps the hooks of a begin it cannot drop");
  (void)Paired;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Fn = CB->getCalledFunction())
        if (is_contained({StringRef(RaceEnterName), StringRef(RaceLeaveName),
                          StringRef(RaceSpawnName)},
                         Fn->getName()))
          Hooks.push_back(CB);
  for (Instruction *I : Hooks)
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
  for (Instruction *I : Hooks)
    I->eraseFromParent();
}

} // namespace

PreservedAnalyses RaceInstrumentPass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  RaceAbi Abi(M);
  UncheckedResults Results =
      findUncheckedResults(M, [&](Function &F) -> ScalarEvolution & {
        return FAM.getResult<ScalarEvolutionAnalysis>(F);
      });
  DenseMap<Function *, unsigned> Checks;
  for (Function &F : M) {
    if (F.isDeclaration() || isRaceCall(&F) ||
        F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
      continue;
    Checks[&F] = FunctionChecks(F, Abi, FAM, Results).run();
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  CheckFree Free(M, Checks, [&](Function &F) -> const TargetLibraryInfo & {
    return FAM.getResult<TargetLibraryAnalysis>(F);
  });
  for (auto &[F, N] : Checks) {
    if (Free.count(F))
      dropHooks(*F);
    else if (N || !F->getName().starts_with(BodyPrefix))
      addEntryAndExits(*F, Abi);
    // A spawn's body that checks nothing itself is no frame in a report:
    // its calls have the spawn's location, and the child's strands begin
    // with the spawn on top of its parent's stack (child_begin).  One
    // that checks an access (a result's store) keeps its frame: that
    // access has no location of its own.
  }
  // The runtime's memory was marked for us; the marks go.
  if (Function *Own = M.getFunction(RaceOwnName)) {
    for (User *U : make_early_inc_range(Own->users())) {
      auto *CB = cast<CallBase>(U);
      CB->replaceAllUsesWith(CB->getArgOperand(0));
      CB->eraseFromParent();
    }
    Own->eraseFromParent();
  }
  dropResultMarks(M);
  // The checks start with the first checked module's constructor (first
  // of all, as a sanitizer's: priority 0).
  Function *Ctor = Function::createWithDefaultAttr(
      FunctionType::get(Type::getVoidTy(M.getContext()), false),
      GlobalValue::InternalLinkage, 0, "ws.race.module_ctor", &M);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Ctor));
  B.CreateCall(M.getOrInsertFunction(RaceInitName, B.getVoidTy()));
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 0);
  return PreservedAnalyses::none();
}

} // namespace wsff
