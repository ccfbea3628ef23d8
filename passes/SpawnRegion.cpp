//===- SpawnRegion.cpp - One ws_spawn, from markers to task ---------------===//

#include "SpawnRegion.h"

#include "AbiNames.h"
#include "Diagnose.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace wsff {

static bool isMarker(const Instruction &I, StringRef Name) {
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *F = CB->getCalledFunction())
      return F->getName() == Name;
  return false;
}

static bool isWsBuiltin(const Instruction &I) {
  return isMarker(I, SpawnBeginName) || isMarker(I, SpawnEndName) ||
         isMarker(I, SyncName);
}

/// Where control goes when nothing throws: an exception while evaluating
/// the arguments unwinds through the parent's own handlers.
static SmallVector<BasicBlock *, 2> normalSuccessors(Instruction &Term) {
  if (auto *II = dyn_cast<InvokeInst>(&Term))
    return {II->getNormalDest()};
  SmallVector<BasicBlock *, 2> Succs;
  for (BasicBlock *Succ : successors(Term.getParent()))
    Succs.push_back(Succ);
  return Succs;
}

/// Walks forward from the begin marker to its end marker.  The macro makes
/// the region straight-line code, possibly with the branches of a `?:` or
/// `&&` in the arguments, and no other builtin.
static CallInst *findEndMarker(CallInst *Begin) {
  CallInst *Found = nullptr;
  SmallVector<BasicBlock::iterator, 4> Work{std::next(Begin->getIterator())};
  SmallPtrSet<BasicBlock *, 8> Seen{Begin->getParent()};
  unsigned Steps = 0;
  while (!Work.empty()) {
    BasicBlock::iterator It = Work.pop_back_val();
    BasicBlock *BB = It->getParent();
    for (; It != BB->end(); ++It) {
      if (++Steps > 100000)
        return nullptr;
      if (isMarker(*It, SpawnEndName)) {
        auto *E = cast<CallInst>(&*It);
        if (Found && Found != E)
          return nullptr;
        Found = E;
        break;
      }
      if (isWsBuiltin(*It) || isa<ReturnInst>(*It) || isa<ResumeInst>(*It))
        return nullptr;
      if (It->isTerminator())
        for (BasicBlock *Succ : normalSuccessors(*It)) {
          if (Succ == Begin->getParent())
            return nullptr; // a cycle through the spawn
          if (Seen.insert(Succ).second)
            Work.push_back(Succ->begin());
        }
    }
  }
  return Found;
}

/// Is CB the spawned call: a call of the function named in the begin
/// marker, or any indirect call when the marker names a pointer?
static bool isSpawnedCall(const CallBase &CB, const Value *Target) {
  if (isa<IntrinsicInst>(CB) || isWsBuiltin(CB))
    return false;
  if (const auto *Fn = dyn_cast<Function>(Target))
    return CB.getCalledOperand()->stripPointerCasts() == Fn;
  return CB.getCalledFunction() == nullptr && !CB.isInlineAsm();
}

bool findSpawnRegion(SpawnSite &S) {
  CallInst *Begin = S.Begin;
  if (Begin->arg_size() != 2) {
    errorAt(*Begin, "malformed ws_spawn: __ws_spawn_begin takes the result "
                    "address and the function (use the ws_spawn macro of "
                    "<ws/ws.h>)");
    return false;
  }
  S.End = findEndMarker(Begin);
  if (!S.End) {
    errorAt(*Begin, "malformed ws_spawn: no matching __ws_spawn_end on every "
                    "path (use the ws_spawn macro of <ws/ws.h>)");
    return false;
  }
  const Value *Target = Begin->getArgOperand(1)->stripPointerCasts();
  // The spawned call is the last call of the target before the end marker.
  // Result handling after it may sit behind invokes (C++ cleanups): turn
  // them into calls and merge, since exceptions cannot leave a task.
  for (;;) {
    BasicBlock *BB = S.End->getParent();
    for (auto It = S.End->getReverseIterator(), E = BB->rend(); It != E; ++It) {
      if (&*It == Begin)
        break;
      if (auto *CB = dyn_cast<CallBase>(&*It))
        if (isSpawnedCall(*CB, Target)) {
          S.Call = CB;
          return true;
        }
    }
    BasicBlock *Pred = BB->getSinglePredecessor();
    auto *II = Pred ? dyn_cast<InvokeInst>(Pred->getTerminator()) : nullptr;
    if (!II || II->getNormalDest() != BB || Begin->getParent() == BB)
      break;
    changeToCall(II);
    if (!MergeBlockIntoPredecessor(BB))
      break;
  }
  errorAt(*Begin, "ws_spawn: cannot find the call of the spawned function "
                  "right before the end of the spawn");
  return false;
}

namespace {

/// The instructions of a region from the spawned call to the end marker and
/// how they split between parent and task.
class RegionSplit {
public:
  explicit RegionSplit(SpawnSite &S) : S(S) {}
  bool run();

  SmallVector<Instruction *, 16> Task;      ///< in order, the call first
  SmallVector<AllocaInst *, 4> Temps;       ///< allocas only the task uses
  SmallVector<Instruction *, 8> Dropped;    ///< debug and lifetime markers

private:
  bool isTaskTemp(AllocaInst *A) const;
  SpawnSite &S;
  SmallPtrSet<const Value *, 16> InRegion;
};

bool isDebugOrLifetime(const Instruction &I) {
  if (isa<DbgInfoIntrinsic>(I))
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->isLifetimeStartOrEnd();
  return false;
}

bool RegionSplit::isTaskTemp(AllocaInst *A) const {
  SmallVector<const Value *, 8> Work{A};
  SmallPtrSet<const Value *, 8> Seen{A};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I)
        return false;
      if (isDebugOrLifetime(*I))
        continue;
      if (!InRegion.count(I))
        return false;
      if ((isa<GetElementPtrInst>(I) || isa<CastInst>(I)) && Seen.insert(I).second)
        Work.push_back(I);
    }
  }
  return true;
}

bool RegionSplit::run() {
  SmallVector<Instruction *, 16> Region;
  for (Instruction *I = S.Call; I != S.End; I = I->getNextNode()) {
    Region.push_back(I);
    InRegion.insert(I);
  }
  SmallPtrSet<const Value *, 4> TempSet;
  for (Instruction *I : Region)
    for (Value *Op : I->operands())
      if (auto *A = dyn_cast<AllocaInst>(Op->stripPointerCasts()))
        if (!TempSet.count(A) && isTaskTemp(A)) {
          TempSet.insert(A);
          Temps.push_back(A);
        }

  // The task: the call and everything that depends on it or on its temps.
  SmallPtrSet<const Value *, 16> InTask;
  SmallVector<Instruction *, 8> Hoist;
  for (Instruction *I : Region) {
    if (isa<DbgInfoIntrinsic>(I)) {
      Dropped.push_back(I);
      continue;
    }
    bool Dependent = I == S.Call;
    for (Value *Op : I->operands())
      Dependent |= InTask.count(Op) || TempSet.count(Op->stripPointerCasts());
    if (Dependent) {
      if (isDebugOrLifetime(*I)) {
        Dropped.push_back(I);
        continue;
      }
      InTask.insert(I);
      Task.push_back(I);
      continue;
    }
    // Independent of the call: the macro's reload of the result address,
    // or a marker.  Evaluate it in the parent, before the spawn.
    if (I->mayHaveSideEffects() && !isDebugOrLifetime(*I)) {
      errorAt(*I, "ws_spawn: the spawned statement has side effects after the "
                  "call that do not depend on it (C++ temporaries destroyed "
                  "after the call?); pass such arguments by pointer");
      return false;
    }
    Hoist.push_back(I);
  }
  for (Instruction *I : Hoist)
    I->moveBefore(S.Call);

  for (Instruction *I : Task)
    for (User *U : I->users())
      if (auto *UI = dyn_cast<Instruction>(U))
        if (!InTask.count(UI) && !isa<DbgInfoIntrinsic>(UI)) {
          errorAt(*UI, "ws_spawn: the result of the spawned call is used "
                       "outside the spawn before ws_sync");
          return false;
        }
  for (AllocaInst *A : Temps)
    if (!A->isStaticAlloca()) {
      errorAt(*S.Call, "ws_spawn: the spawned call uses a variable-length "
                       "temporary");
      return false;
    }
  return true;
}

/// Function attributes of the parent worth keeping on the body and the
/// thunk (target features must match for the inliner), minus inlining
/// controls.
void copyFunctionAttributes(const Function &From, Function &To) {
  AttrBuilder AB(From.getContext(), From.getAttributes().getFnAttrs());
  for (Attribute::AttrKind K :
       {Attribute::AlwaysInline, Attribute::NoInline, Attribute::OptimizeNone,
        Attribute::Naked, Attribute::NoReturn, Attribute::Cold})
    AB.removeAttribute(K);
  To.addFnAttrs(AB);
  dropAttributesTheRuntimeBreaks(To);
}

} // namespace

void dropAttributesTheRuntimeBreaks(Function &F) {
  for (Attribute::AttrKind K : {Attribute::Memory, Attribute::NoSync,
                                Attribute::NoFree, Attribute::NoRecurse,
                                Attribute::Speculatable})
    F.removeFnAttr(K);
}

bool outlineSpawn(SpawnSite &S) {
  RegionSplit Split(S);
  if (!Split.run())
    return false;

  Function &Parent = *S.Begin->getFunction();
  Module &M = *Parent.getParent();
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();

  // Live-ins: operands of task instructions defined outside the task.
  SmallPtrSet<const Value *, 16> InTask(Split.Task.begin(), Split.Task.end());
  SmallPtrSet<const Value *, 4> Temps(Split.Temps.begin(), Split.Temps.end());
  SetVector<Value *> LiveIns;
  for (Instruction *I : Split.Task)
    for (Value *Op : I->operands()) {
      if (InTask.count(Op) || Temps.count(Op))
        continue;
      if (isa<Instruction>(Op) || isa<Argument>(Op))
        LiveIns.insert(Op);
    }
  for (Value *V : LiveIns) {
    Type *Byval = nullptr;
    MaybeAlign ByvalAlign;
    bool OnlyByval = true;
    for (Use &U : V->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I || !InTask.count(I))
        continue;
      if (I == S.Call && S.Call->isArgOperand(&U) &&
          S.Call->isByValArgument(S.Call->getArgOperandNo(&U))) {
        Byval = S.Call->getParamByValType(S.Call->getArgOperandNo(&U));
        ByvalAlign = S.Call->getParamAlign(S.Call->getArgOperandNo(&U));
      } else
        OnlyByval = false;
      if (I == S.Call && S.Call->isArgOperand(&U)) {
        unsigned No = S.Call->getArgOperandNo(&U);
        if (S.Call->isInAllocaArgument(No) ||
            S.Call->paramHasAttr(No, Attribute::Preallocated)) {
          errorAt(*S.Call, "ws_spawn: inalloca and preallocated arguments are "
                           "not supported");
          return false;
        }
      }
    }
    S.LiveIns.push_back(V);
    S.ByvalCopy.push_back(OnlyByval ? Byval : nullptr);
    S.ByvalAlign.push_back(OnlyByval ? ByvalAlign : MaybeAlign());
  }

  // Descriptor: the ws_task header { run, state }, the chain link in a
  // dynamic function, then the live-ins.
  Type *PtrTy = PointerType::getUnqual(Ctx);
  SmallVector<Type *, 10> Fields{PtrTy, DL.getIntPtrType(Ctx)};
  if (S.Chained)
    Fields.push_back(PtrTy);
  for (unsigned I = 0; I < S.LiveIns.size(); ++I)
    Fields.push_back(S.ByvalCopy[I] ? S.ByvalCopy[I] : S.LiveIns[I]->getType());
  std::string Base = (Parent.getName() + "." + Twine(S.Index)).str();
  S.DescTy = StructType::create(Ctx, Fields, "ws.desc." + Base);

  // Body: the task instructions, as a function of the live-ins.
  SmallVector<Type *, 8> Params;
  for (Value *V : S.LiveIns)
    Params.push_back(V->getType());
  S.Body = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), Params, false),
                            GlobalValue::InternalLinkage, "__ws_body." + Base, M);
  copyFunctionAttributes(Parent, *S.Body);
  S.Body->addFnAttr(Attribute::AlwaysInline);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", S.Body);
  ValueToValueMapTy VMap;
  for (unsigned I = 0; I < S.LiveIns.size(); ++I) {
    Argument *A = S.Body->getArg(I);
    A->setName(S.LiveIns[I]->getName());
    if (S.ByvalCopy[I])
      S.Body->addParamAttr(I, Attribute::NoAlias);
    VMap[S.LiveIns[I]] = A;
  }
  for (AllocaInst *A : Split.Temps) {
    Instruction *NewA = A->clone();
    NewA->setName(A->getName());
    NewA->insertInto(Entry, Entry->end());
    VMap[A] = NewA;
  }
  for (Instruction *I : Split.Task) {
    Instruction *NewI = I->clone();
    NewI->setName(I->getName());
    NewI->insertInto(Entry, Entry->end());
    VMap[I] = NewI;
  }
  for (Instruction &I : *Entry) {
    RemapInstruction(&I, VMap,
                     RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    I.setDebugLoc(DebugLoc()); // the body has no subprogram of its own
    if (auto *CI = dyn_cast<CallInst>(&I))
      CI->setTailCallKind(CallInst::TCK_None); // its temps live in our frame
  }
  ReturnInst::Create(Ctx, Entry);

  // Thunk: what a thief runs, void(ws_task *).
  S.Thunk = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {PtrTy}, false),
                             GlobalValue::InternalLinkage, "__ws_thunk." + Base, M);
  copyFunctionAttributes(Parent, *S.Thunk);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", S.Thunk));
  B.CreateCall(S.Body, bodyArguments(S, S.Thunk->getArg(0), true, B));
  B.CreateRetVoid();

  S.Task = std::move(Split.Task);
  S.Temps = std::move(Split.Temps);
  S.Dropped = std::move(Split.Dropped);
  return true;
}

void removeTask(SpawnSite &S) {
  for (Instruction *I : S.Dropped)
    I->eraseFromParent();
  for (Instruction *I : llvm::reverse(S.Task)) {
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
    I->eraseFromParent();
  }
  for (AllocaInst *A : S.Temps) {
    SmallVector<DbgVariableIntrinsic *, 2> DbgUsers;
    SmallVector<DbgVariableRecord *, 2> Records;
    findDbgUsers(DbgUsers, A, &Records);
    for (auto *D : DbgUsers)
      D->eraseFromParent();
    for (auto *R : Records)
      R->eraseFromParent();
    SmallVector<Instruction *, 4> Markers;
    for (User *U : A->users())
      if (auto *I = dyn_cast<Instruction>(U))
        Markers.push_back(I);
    for (Instruction *I : Markers)
      I->eraseFromParent();
    A->eraseFromParent();
  }
  S.Task.clear();
  S.Temps.clear();
  S.Dropped.clear();
}

SmallVector<Value *, 8> bodyArguments(const SpawnSite &S, Value *Desc,
                                      bool LoadFromDesc, IRBuilderBase &B) {
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < S.LiveIns.size(); ++I) {
    Value *Field = nullptr;
    if (LoadFromDesc || S.ByvalCopy[I])
      Field = B.CreateStructGEP(S.DescTy, Desc, S.fieldOf(I));
    if (S.ByvalCopy[I])
      Args.push_back(Field);
    else if (LoadFromDesc)
      Args.push_back(B.CreateLoad(S.LiveIns[I]->getType(), Field));
    else
      Args.push_back(S.LiveIns[I]);
  }
  return Args;
}

void emitSpawn(SpawnSite &S, Value *W, FunctionCallee Push, AllocaInst *Last) {
  Module &M = *S.Begin->getModule();
  const DataLayout &DL = M.getDataLayout();
  IRBuilder<> B(S.End);
  B.SetCurrentDebugLocation(S.Begin->getDebugLoc());
  if (S.DynamicDesc) {
    S.Desc = B.CreateAlloca(S.DescTy, nullptr, "ws.desc");
    S.Desc->setAlignment(Align(16));
  }
  // The header stores are volatile: a thief needs them, and they are two
  // of the stores the store-count analysis may rely on (two fields of a
  // descriptor nothing else writes before the next take).
  MDNode *Counted = MDNode::get(M.getContext(), {});
  B.CreateAlignedStore(S.Thunk, B.CreateStructGEP(S.DescTy, S.Desc, 0),
                       Align(8), /*isVolatile=*/true)
      ->setMetadata(CountedStoreMD, Counted);
  B.CreateAlignedStore(ConstantInt::get(S.DescTy->getElementType(1), 0),
                       B.CreateStructGEP(S.DescTy, S.Desc, 1), Align(8),
                       /*isVolatile=*/true)
      ->setMetadata(CountedStoreMD, Counted);
  for (unsigned I = 0; I < S.LiveIns.size(); ++I) {
    Value *Field = B.CreateStructGEP(S.DescTy, S.Desc, S.fieldOf(I));
    if (Type *T = S.ByvalCopy[I])
      B.CreateMemCpy(Field, DL.getABITypeAlign(T), S.LiveIns[I],
                     S.ByvalAlign[I].value_or(Align(1)), DL.getTypeAllocSize(T));
    else
      B.CreateStore(S.LiveIns[I], Field);
  }
  if (S.Chained) {
    B.CreateStore(B.CreateLoad(B.getPtrTy(), Last, "ws.last"),
                  B.CreateStructGEP(S.DescTy, S.Desc, SpawnSite::PrevField));
    B.CreateStore(S.Desc, Last);
  }
  B.CreateCall(Push, {W, S.Desc});
  S.End->eraseFromParent();
  S.Begin->eraseFromParent();
  S.End = S.Begin = nullptr;
}

} // namespace wsff
