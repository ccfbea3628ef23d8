//===- RaceResults.cpp - -fws-race: result objects no check needs ---------===//

#include "RaceResults.h"

#include "AbiNames.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <optional>

using namespace llvm;

namespace wsff {
namespace {

bool isCallNamed(const Value *V, StringRef Name) {
  auto *CB = dyn_cast<CallBase>(V);
  Function *Fn = CB ? CB->getCalledFunction() : nullptr;
  return Fn && Fn->getName() == Name;
}

/// The body of the task whose result address St keeps: the function its
/// thunk (the mark's operand) calls.
Function *thunkOf(const Instruction *St) {
  MDNode *MD = St->getMetadata(ResultAddrMD);
  return MD && MD->getNumOperands() == 1
             ? mdconst::dyn_extract_or_null<Function>(MD->getOperand(0))
             : nullptr;
}

Function *bodyOfThunk(const Function *Thunk) {
  if (!Thunk || Thunk->isDeclaration() || !Thunk->getName().starts_with(ThunkPrefix))
    return nullptr;
  Function *Body = nullptr;
  for (const Instruction &I : instructions(*Thunk))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (Function *Fn = CB->getCalledFunction(); Fn && Fn->getName().starts_with(BodyPrefix)) {
        if (Body && Body != Fn)
          return nullptr;
        Body = Fn;
      }
  return Body;
}

Function *bodyOf(const Instruction *St) { return bodyOfThunk(thunkOf(St)); }

/// A body's store of its task's value: through which argument, and how
/// many bytes.  None if the body does anything else with that address.
struct ResultWrite {
  unsigned ArgNo;
  uint64_t Size;
};

std::optional<ResultWrite> resultWriteOf(Function &B) {
  const DataLayout &DL = B.getDataLayout();
  std::optional<ResultWrite> W;
  Argument *Arg = nullptr;
  for (Instruction &I : instructions(B)) {
    auto *St = dyn_cast<StoreInst>(&I);
    if (!St || !St->hasMetadata(ResultWriteMD))
      continue;
    auto *A = dyn_cast<Argument>(St->getPointerOperand());
    if (!A || (Arg && A != Arg) || St->getValueOperand() == A)
      return std::nullopt;
    Arg = A;
    uint64_t N = DL.getTypeStoreSize(St->getValueOperand()->getType()).getFixedValue();
    W = ResultWrite{A->getArgNo(), W ? std::max(W->Size, N) : N};
  }
  if (!Arg)
    return std::nullopt;
  for (const User *U : Arg->users()) {
    auto *St = dyn_cast<StoreInst>(U);
    if (!St || !St->hasMetadata(ResultWriteMD) || St->getValueOperand() == Arg)
      return std::nullopt;
  }
  return W;
}

/// An offset into the object that each execution of an instruction takes:
/// a constant, or Start + Step * (the iteration of loop L it runs in).
struct Offset {
  int64_t Start = 0, Step = 0;
  const Loop *L = nullptr;
};

/// One access of the object (or a task's result in it): Size bytes at Off.
struct Piece {
  Instruction *I;
  Offset Off;
  uint64_t Size;
};

/// Where an instruction runs while a task spawned at From may be
/// outstanding: every instruction reachable from it before a sync mark;
/// SameIteration, those reached without a back edge of L; Reentered, L's
/// header reached from outside L (its iterations count again).
struct Reach {
  SmallPtrSet<const Instruction *, 32> All, SameIteration;
  bool Reentered = false;
};

class ObjectCheck {
public:
  ObjectCheck(AllocaInst &A, ScalarEvolution &SE, const SmallPtrSetImpl<Instruction *> &Marks,
              DenseMap<Function *, std::optional<ResultWrite>> &Writes)
      : A(A), SE(SE), Marks(Marks), Writes(Writes) {}

  /// May the object's accesses and its tasks' stores go unchecked?  Fills
  /// Bodies with the bodies whose stores land in it.
  bool run(SmallVectorImpl<Function *> &Bodies) {
    return collect(Bodies) && all_of(Dests, [&](const Piece &R) { return apart(R); });
  }

private:
  std::optional<ResultWrite> &writeOf(Function *B) {
    auto [It, New] = Writes.try_emplace(B);
    if (New)
      It->second = resultWriteOf(*B);
    return It->second;
  }

  std::optional<Offset> offsetOf(Value *Ptr, Instruction *At) {
    const SCEV *S = SE.getMinusSCEV(SE.getSCEV(Ptr), SE.getSCEV(&A));
    if (auto *C = dyn_cast<SCEVConstant>(S))
      return Offset{C->getAPInt().getSExtValue(), 0, nullptr};
    auto *AR = dyn_cast<SCEVAddRecExpr>(S);
    if (!AR || !AR->isAffine() || !AR->getLoop()->contains(At))
      return std::nullopt;
    auto *Start = dyn_cast<SCEVConstant>(AR->getStart());
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!Start || !Step || Step->getAPInt().isZero())
      return std::nullopt;
    return Offset{Start->getAPInt().getSExtValue(), Step->getAPInt().getSExtValue(),
                  AR->getLoop()};
  }

  bool addPiece(SmallVectorImpl<Piece> &To, Instruction *I, Value *Ptr, uint64_t Size) {
    std::optional<Offset> Off = offsetOf(Ptr, I);
    if (!Off || !Size)
      return false;
    To.push_back({I, *Off, Size});
    return true;
  }

  /// Every use of the object's address: accesses, the tasks' results
  /// (marked stores of it into a slot or frame block), the direct calls
  /// of their bodies at a sync.  Anything else may let it out.
  bool collect(SmallVectorImpl<Function *> &Bodies) {
    const DataLayout &DL = A.getDataLayout();
    SmallVector<Value *, 8> Work{&A};
    SmallPtrSet<Value *, 16> Seen{&A};
    while (!Work.empty()) {
      Value *V = Work.pop_back_val();
      for (Use &U : V->uses()) {
        auto *I = dyn_cast<Instruction>(U.getUser());
        if (!I)
          return false;
        if (auto *G = dyn_cast<GetElementPtrInst>(I)) {
          if (G->getPointerOperand() != V)
            return false;
          if (Seen.insert(G).second)
            Work.push_back(G);
        } else if (auto *L = dyn_cast<LoadInst>(I)) {
          if (!addPiece(Accesses, L, V, DL.getTypeStoreSize(L->getType()).getFixedValue()))
            return false;
        } else if (auto *St = dyn_cast<StoreInst>(I)) {
          if (St->getValueOperand() != V) {
            if (!addPiece(Accesses, St, V,
                          DL.getTypeStoreSize(St->getValueOperand()->getType()).getFixedValue()))
              return false;
            continue;
          }
          // A task's result address, kept in its slot or frame block.
          Function *B = St->hasMetadata(ResultAddrMD) ? bodyOf(St) : nullptr;
          std::optional<ResultWrite> W = B ? writeOf(B) : std::nullopt;
          if (!W || St->getPointerOperand() == V || !addPiece(Dests, St, V, W->Size))
            return false;
          Bodies.push_back(B);
        } else if (auto *II = dyn_cast<IntrinsicInst>(I);
                   II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II))) {
          continue;
        } else if (auto *M = dyn_cast<MemIntrinsic>(I)) {
          auto *Len = dyn_cast<ConstantInt>(M->getLength());
          if (!Len || M->isVolatile() || !addPiece(Accesses, M, V, Len->getZExtValue()))
            return false;
        } else if (auto *CB = dyn_cast<CallBase>(I)) {
          // A body run at a sync, given the result's address.
          Function *B = CB->getCalledFunction();
          std::optional<ResultWrite> W =
              B && B->getName().starts_with(BodyPrefix) ? writeOf(B) : std::nullopt;
          if (!W || !CB->isArgOperand(&U) || CB->getArgOperandNo(&U) != W->ArgNo)
            return false;
        } else if (!isa<ICmpInst>(I)) {
          return false;
        }
      }
    }
    return !Dests.empty();
  }

  void walk(Instruction *From, const Loop *L, bool NoBackEdges,
            SmallPtrSetImpl<const Instruction *> &Out, bool *Reentered) {
    SmallVector<BasicBlock *, 16> Work;
    SmallPtrSet<BasicBlock *, 16> Seen;
    auto Scan = [&](BasicBlock::iterator It, BasicBlock *BB) {
      for (; It != BB->end(); ++It) {
        if (Marks.count(&*It))
          return;
        Out.insert(&*It);
      }
      for (BasicBlock *S : successors(BB)) {
        if (L && S == L->getHeader()) {
          bool Back = L->contains(BB);
          if (Back && NoBackEdges)
            continue;
          if (!Back && Reentered)
            *Reentered = true;
        }
        Work.push_back(S);
      }
    };
    Scan(std::next(From->getIterator()), From->getParent());
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (Seen.insert(BB).second)
        Scan(BB->begin(), BB);
    }
  }

  /// The offsets [Lo, Hi) that some execution of P covers; none if its
  /// loop's iterations are not bounded by a constant.
  std::optional<std::pair<int64_t, int64_t>> hull(const Piece &P) {
    if (!P.Off.L)
      return std::make_pair(P.Off.Start, P.Off.Start + (int64_t)P.Size);
    auto *N = dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(P.Off.L));
    if (!N || N->getAPInt().getActiveBits() > 32)
      return std::nullopt;
    int64_t Last = P.Off.Start + P.Off.Step * (int64_t)N->getAPInt().getZExtValue();
    return std::make_pair(std::min(P.Off.Start, Last),
                          std::max(P.Off.Start, Last) + (int64_t)P.Size);
  }

  /// Can P, which runs while the task of R may be outstanding, share a
  /// byte with R's result?
  bool apartFrom(const Piece &R, const Piece &P, const Reach &Re) {
    if (R.Off.L && R.Off.L == P.Off.L && R.Off.Step == P.Off.Step) {
      // The same loop: P in iteration j, R's task of iteration k <= j
      // (k < j unless P follows R within an iteration), on one entry of
      // the loop.
      if (Re.Reentered)
        return false;
      int64_t D = P.Off.Start - R.Off.Start, S = R.Off.Step;
      auto Apart = [&](int64_t X) { return X >= (int64_t)R.Size || X <= -(int64_t)P.Size; };
      if (Re.SameIteration.count(P.I) && !Apart(D))
        return false;
      return S > 0 ? D + S >= (int64_t)R.Size : D + S <= -(int64_t)P.Size;
    }
    if (R.Off.L && P.Off.L)
      return false; // two loops: not worth telling
    // One of them the same at every execution: apart from all of the
    // other's.
    auto HR = hull(R), HP = hull(P);
    return HR && HP && (HR->second <= HP->first || HP->second <= HR->first);
  }

  /// Does nothing touch R's result while its task may be outstanding?
  bool apart(const Piece &R) {
    Reach Re;
    walk(R.I, R.Off.L, /*NoBackEdges=*/false, Re.All, &Re.Reentered);
    if (R.Off.L)
      walk(R.I, R.Off.L, /*NoBackEdges=*/true, Re.SameIteration, nullptr);
    for (ArrayRef<Piece> Pieces : {ArrayRef<Piece>(Accesses), ArrayRef<Piece>(Dests)})
      for (const Piece &P : Pieces)
        if (Re.All.count(P.I) && !apartFrom(R, P, Re))
          return false;
    return true;
  }

  AllocaInst &A;
  ScalarEvolution &SE;
  const SmallPtrSetImpl<Instruction *> &Marks;
  DenseMap<Function *, std::optional<ResultWrite>> &Writes;
  SmallVector<Piece, 16> Accesses, Dests;
};

} // namespace

UncheckedResults findUncheckedResults(Module &M,
                                      function_ref<ScalarEvolution &(Function &)> GetSE) {
  DenseMap<Function *, std::optional<ResultWrite>> Writes;
  // The objects that passed, with the bodies whose stores land in them;
  // per body, the objects it may store into; the bodies that may store
  // elsewhere.
  DenseMap<AllocaInst *, SmallVector<Function *, 4>> Objects;
  DenseMap<Function *, SmallVector<AllocaInst *, 4>> Into;
  SmallPtrSet<Function *, 8> Bad;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    SmallPtrSet<Instruction *, 8> Marks;
    SmallPtrSet<AllocaInst *, 8> Failed;
    SmallVector<std::pair<StoreInst *, Function *>, 8> Stores;
    // Each spawn stores its thunk and, in the same block, its result's
    // address, marked.  A thunk stored without the mark beside it (the
    // optimizer merged two spawns' stores, and dropped the marks): its
    // body may get an address that no mark tells of, and stays checked.
    DenseSet<std::pair<const BasicBlock *, const Function *>> Marked, Pushed;
    for (Instruction &I : instructions(F)) {
      if (isCallNamed(&I, RaceSyncedName))
        Marks.insert(&I);
      if (auto *St = dyn_cast<StoreInst>(&I))
        if (auto *Th = dyn_cast<Function>(St->getValueOperand()))
          Pushed.insert({St->getParent(), Th});
      if (Function *Th = thunkOf(&I))
        Marked.insert({I.getParent(), Th});
      if (I.hasMetadata(ResultAddrMD)) {
        // A marked store whose body cannot be found: its object stays
        // checked.
        if (Function *B = bodyOf(&I))
          Stores.push_back({cast<StoreInst>(&I), B});
        else if (auto *A = dyn_cast<AllocaInst>(
                     getUnderlyingObject(cast<StoreInst>(&I)->getValueOperand(), 0)))
          Failed.insert(A);
      }
    }
    for (auto [BB, Th] : Pushed)
      if (Function *B = bodyOfThunk(Th); B && !Marked.count({BB, Th}))
        Bad.insert(B);
    ScalarEvolution *SE = nullptr;
    for (auto [St, B] : Stores) {
      auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(St->getValueOperand(), 0));
      if (!A || A->getFunction() != &F || !A->isStaticAlloca() || Failed.count(A)) {
        Bad.insert(B);
        continue;
      }
      Into[B].push_back(A);
      if (Objects.count(A))
        continue;
      if (!SE)
        SE = &GetSE(F);
      SmallVector<Function *, 4> Bodies;
      if (ObjectCheck(*A, *SE, Marks, Writes).run(Bodies))
        Objects[A] = std::move(Bodies);
      else
        Failed.insert(A), Bad.insert(B);
    }
  }
  // A body's result address comes from a slot or frame block (the marked
  // stores above) or directly, at a static sync.
  for (auto &[B, To] : Into) {
    std::optional<ResultWrite> &W = Writes[B];
    for (const Use &U : B->uses()) {
      auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || !CB->isCallee(&U) || !W) {
        Bad.insert(B);
        break;
      }
      const Value *P = getUnderlyingObject(CB->getArgOperand(W->ArgNo), 0);
      if (auto *A = dyn_cast<AllocaInst>(P))
        To.push_back(const_cast<AllocaInst *>(A));
      else if (!isa<LoadInst>(P) && !isCallNamed(P, RaceOwnName))
        Bad.insert(B);
    }
  }
  // An object stays unchecked when every body storing into it does, and a
  // body when every object it stores into does.
  auto Clear = [&](Function *B) {
    return !Bad.count(B) && all_of(Into[B], [&](AllocaInst *A) { return Objects.count(A); });
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto It = Objects.begin(); It != Objects.end();) {
      auto Cur = It++;
      if (!all_of(Cur->second, Clear)) {
        Objects.erase(Cur);
        Changed = true;
      }
    }
  }
  UncheckedResults R;
  for (auto &[A, Bodies] : Objects)
    R.Objects.insert(A);
  for (auto &[B, To] : Into)
    if (Clear(B))
      R.Bodies.insert(B);
  return R;
}

void dropResultMarks(Module &M) {
  if (Function *Synced = M.getFunction(RaceSyncedName)) {
    for (User *U : make_early_inc_range(Synced->users()))
      cast<Instruction>(U)->eraseFromParent();
    Synced->eraseFromParent();
  }
  LLVMContext &Ctx = M.getContext();
  unsigned Addr = Ctx.getMDKindID(ResultAddrMD), Write = Ctx.getMDKindID(ResultWriteMD);
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      I.setMetadata(Addr, nullptr);
      I.setMetadata(Write, nullptr);
    }
}

} // namespace wsff
