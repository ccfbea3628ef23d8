//===- SpawnRegion.cpp - One ws_spawn, from markers to task ---------------===//

#include "SpawnRegion.h"

#include "AbiNames.h"
#include "Diagnose.h"
#include "SpawnCall.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstddef>

using namespace llvm;

namespace wsff {

bool findSpawnRegion(SpawnSite &S) {
  CallInst *Begin = S.Begin;
  if (Begin->arg_size() != 2) {
    errorAt(*Begin, "malformed ws_spawn: __ws_spawn_begin takes the result "
                    "address and the function (use the ws_spawn macro of "
                    "<ws/ws.h>)");
    return false;
  }
  S.End = spawnEndOf(*Begin);
  if (!S.End) {
    errorAt(*Begin, "malformed ws_spawn: no matching __ws_spawn_end on every "
                    "path (use the ws_spawn macro of <ws/ws.h>)");
    return false;
  }
  S.Call = spawnedCallOf(*Begin, *S.End);
  if (!S.Call) {
    errorAt(*Begin, "ws_spawn: cannot find the call of the spawned function "
                    "right before the end of the spawn");
    return false;
  }
  return true;
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
  SmallVector<Instruction *, 8> Hoist, Sink;
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
                  "after the call?); pass such arguments by pointer, or capture them in a "
                  "C++ lambda");
      return false;
    }
    // The end of a temporary's life (the caller's copy of an aggregate
    // passed by value): after the spawn, which copies the argument into
    // the task's frame there.  Hoisted before the call, it ended the
    // temporary before that copy read it, and the optimizer dropped the
    // writes that filled it (issue 36: AArch64 structs of 30 bytes and more).
    if (const auto *II = dyn_cast<IntrinsicInst>(I);
        II && II->getIntrinsicID() == Intrinsic::lifetime_end) {
      Sink.push_back(I);
      continue;
    }
    Hoist.push_back(I);
  }
  for (Instruction *I : Hoist)
    I->moveBefore(S.Call);
  for (Instruction *I : reverse(Sink))
    I->moveAfter(S.End);

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
  // A body or thunk is not a clone: it takes the tail, but ws-leafsplit
  // and ws-tre must leave it alone.
  AB.removeAttribute(CloneAttr);
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

/// Is the region's result handling one store of the call's value, to an
/// address the parent computed, of a value that fits in the slot?  Then it
/// travels as a value (SpawnSite::ResultPtr).
static StoreInst *valueResultStore(const SpawnSite &S, ArrayRef<Instruction *> Task,
                                   ArrayRef<AllocaInst *> Temps,
                                   const DataLayout &DL) {
  if (Task.size() != 2 || !Temps.empty())
    return nullptr;
  auto *SI = dyn_cast<StoreInst>(Task[1]);
  if (!SI || SI->getValueOperand() != S.Call || SI->isVolatile() || SI->isAtomic())
    return nullptr;
  Type *Ty = S.Call->getType();
  if (!Ty->isFirstClassType() || DL.getTypeAllocSize(Ty) > WS_SLOT_PAYLOAD ||
      DL.getABITypeAlign(Ty) > Align(16))
    return nullptr;
  return SI;
}

/// Where a live-in travels: its own type, or the type its byval copy has.
static Type *fieldType(const SpawnSite &S, unsigned I) {
  return S.ByvalCopy[I] ? S.ByvalCopy[I] : S.LiveIns[I]->getType();
}

/// The alignment a live-in's field needs: its type's, or more for a byval
/// copy of an over-aligned type (_Alignas(64)): the callee may rely on it.
static Align fieldAlign(const SpawnSite &S, unsigned I, const DataLayout &DL) {
  Align A = DL.getABITypeAlign(fieldType(S, I));
  if (S.ByvalAlign[I] && *S.ByvalAlign[I] > A)
    A = *S.ByvalAlign[I];
  return A;
}

/// The live-ins' layout, in the slot's payload or in the spawning frame.
/// Where a field must be more aligned than its type (a byval copy of an
/// _Alignas type: IR types know nothing of it), a packed struct whose
/// padding is explicit; else the plain struct, which lays out the same.
static void layOut(SpawnSite &S, const DataLayout &DL, LLVMContext &Ctx,
                   const Twine &Name) {
  bool OverAligned = false;
  for (unsigned I = 0; I < S.LiveIns.size(); ++I)
    OverAligned |= fieldAlign(S, I, DL) > DL.getABITypeAlign(fieldType(S, I));
  SmallVector<Type *, 8> Fields;
  bool Byval = false;
  uint64_t Size = 0;
  S.LayoutAlign = Align(1);
  S.FieldIndex.clear();
  for (unsigned I = 0; I < S.LiveIns.size(); ++I) {
    Align A = fieldAlign(S, I, DL);
    uint64_t At = alignTo(Size, A);
    if (At != Size && OverAligned)
      Fields.push_back(ArrayType::get(Type::getInt8Ty(Ctx), At - Size));
    S.FieldIndex.push_back(Fields.size());
    Fields.push_back(fieldType(S, I));
    Size = At + DL.getTypeAllocSize(fieldType(S, I));
    S.LayoutAlign = std::max(S.LayoutAlign, A);
    Byval |= S.ByvalCopy[I] != nullptr;
  }
  S.LayoutTy = StructType::create(Ctx, Fields, Name.str(), /*isPacked=*/OverAligned);
  S.InFrame = Byval || DL.getTypeAllocSize(S.LayoutTy) > WS_SLOT_PAYLOAD ||
              S.LayoutAlign > Align(16);
}

/// A live-in's field in a layout at Base.
static Value *fieldOf(const SpawnSite &S, IRBuilderBase &B, Value *Base, unsigned I) {
  return B.CreateStructGEP(S.LayoutTy, Base, S.FieldIndex[I]);
}

/// The payload of a slot (ws_slot.payload).
static Value *payload(IRBuilderBase &B, Value *Slot) {
  return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Slot,
                                      offsetof(ws_slot, payload), "ws.payload");
}

/// Where the live-ins are for a task in Slot: the payload, or the frame
/// descriptor it points to.
static Value *layoutIn(const SpawnSite &S, IRBuilderBase &B, Value *Slot) {
  Value *P = payload(B, Slot);
  return S.InFrame ? B.CreateLoad(B.getPtrTy(), P, "ws.frame") : P;
}

/// Arguments of the body: the live-ins (a pointer to the copy for byval
/// ones), as SSA values of the parent, or read from Layout.
static SmallVector<Value *, 8> bodyArgs(const SpawnSite &S, Value *Layout,
                                        Value *Frame, IRBuilderBase &B) {
  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < S.LiveIns.size(); ++I) {
    if (S.ByvalCopy[I]) { // only ever InFrame
      Args.push_back(fieldOf(S, B, Layout ? Layout : Frame, I));
      continue;
    }
    if (!Layout) {
      Args.push_back(S.LiveIns[I]);
      continue;
    }
    Args.push_back(B.CreateLoad(S.LiveIns[I]->getType(), fieldOf(S, B, Layout, I)));
  }
  return Args;
}

bool checkSpawnRegion(SpawnSite &S) { return RegionSplit(S).run(); }

/// Is V the caller's copy of an aggregate passed by value to Call through a
/// pointer (no byval: the ABI of AArch64 and others for a struct over 16
/// bytes)?  A local that is only written (stores, memcpy into it), marked
/// live or dead, and given to Call: the temporary clang makes for the
/// argument, dead once the call returns, so the task, which runs later,
/// needs its own copy.
static AllocaInst *argumentCopy(Value *V, CallBase &Call) {
  auto *A = dyn_cast<AllocaInst>(V);
  if (!A || !A->isStaticAlloca() || !A->getAllocatedType()->isSized())
    return nullptr;
  unsigned Passed = 0;
  SmallVector<Value *, 4> Work{A};
  SmallPtrSet<Value *, 4> Seen{A};
  while (!Work.empty()) {
    Value *P = Work.pop_back_val();
    for (User *U : P->users()) {
      if (U == &Call) {
        Passed += P == A;
        if (P != A)
          return nullptr;
        continue;
      }
      if (isa<GetElementPtrInst>(U) && Seen.insert(U).second) {
        Work.push_back(U);
        continue;
      }
      if (auto *St = dyn_cast<StoreInst>(U); St && St->getPointerOperand() == P)
        continue;
      if (auto *M = dyn_cast<MemIntrinsic>(U); M && M->getRawDest() == P)
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(U);
          II && (II->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(II)))
        continue;
      return nullptr;
    }
  }
  return Passed == 1 ? A : nullptr;
}

/// The live-ins of the body's instructions Run (operands defined outside
/// it, Temps aside), into S with how each is passed; false, with an error,
/// for an argument the task cannot take (inalloca, preallocated).
static bool collectLiveIns(SpawnSite &S, ArrayRef<Instruction *> Run,
                           ArrayRef<AllocaInst *> TempAllocas) {
  SmallPtrSet<const Value *, 16> InTask(Run.begin(), Run.end());
  SmallPtrSet<const Value *, 4> Temps(TempAllocas.begin(), TempAllocas.end());
  SetVector<Value *> LiveIns;
  for (Instruction *I : Run)
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
      } else if (AllocaInst *Copy = I == S.Call && S.Call->isArgOperand(&U)
                                       ? argumentCopy(V, *S.Call)
                                       : nullptr) {
        // An aggregate passed by value as a pointer to the caller's copy
        // (AArch64 and others, where x86-64 says byval): the task gets a
        // copy of its own, as for byval.
        Byval = Copy->getAllocatedType();
        ByvalAlign = Copy->getAlign();
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
  return true;
}

/// The body, __ws_body.<Base>: the task instructions Run (with the allocas
/// only they use) as a function of the tail and the live-ins; a value
/// task's returns the call's value.  Calls of spawning functions go to
/// their clones, with the body's tail.
static void emitBody(SpawnSite &S, ArrayRef<Instruction *> Run,
                     ArrayRef<AllocaInst *> TempAllocas, const CloneMap &Clones,
                     const std::string &Base) {
  Function &Parent = *S.Begin->getFunction();
  Module &M = *Parent.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *PtrTy = PointerType::getUnqual(Ctx);
  SmallVector<Type *, 8> Params{PtrTy};
  for (Value *V : S.LiveIns)
    Params.push_back(V->getType());
  Type *RetTy = S.returnsValue() ? S.ResultTy : Type::getVoidTy(Ctx);
  S.Body = Function::Create(FunctionType::get(RetTy, Params, false),
                            GlobalValue::InternalLinkage, BodyPrefix + Base, M);
  copyFunctionAttributes(Parent, *S.Body);
  if (S.MayThrow) // a noexcept parent's handlers catch it
    S.Body->removeFnAttr(Attribute::NoUnwind);
  S.Body->addFnAttr(Attribute::AlwaysInline);
  Argument *Tail = S.Body->getArg(0);
  Tail->setName("ws.tail");
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", S.Body);
  ValueToValueMapTy VMap;
  for (unsigned I = 0; I < S.LiveIns.size(); ++I) {
    Argument *A = S.Body->getArg(I + 1);
    A->setName(S.LiveIns[I]->getName());
    if (S.ByvalCopy[I])
      S.Body->addParamAttr(I + 1, Attribute::NoAlias);
    VMap[S.LiveIns[I]] = A;
  }
  for (AllocaInst *A : TempAllocas) {
    Instruction *NewA = A->clone();
    NewA->setName(A->getName());
    NewA->insertInto(Entry, Entry->end());
    VMap[A] = NewA;
  }
  SmallVector<CallBase *, 4> Calls;
  for (Instruction *I : Run) {
    Instruction *NewI = I->clone();
    NewI->setName(I->getName());
    NewI->insertInto(Entry, Entry->end());
    VMap[I] = NewI;
    if (auto *CB = dyn_cast<CallBase>(NewI))
      Calls.push_back(CB);
  }
  for (Instruction &I : *Entry) {
    RemapInstruction(&I, VMap,
                     RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    I.setDebugLoc(DebugLoc()); // the body has no subprogram of its own
    if (auto *CI = dyn_cast<CallInst>(&I))
      CI->setTailCallKind(CallInst::TCK_None); // its temps live in our frame
  }
  if (S.returnsValue())
    ReturnInst::Create(Ctx, VMap[S.Call], Entry);
  else
    ReturnInst::Create(Ctx, Entry);
  // The spawned call, where the body inlines at the sync: ws-tre looks for
  // it (a self-recursive one can become a loop).
  cast<Instruction>(VMap[S.Call])
      ->setMetadata(SyncCallMD, MDNode::get(Ctx, {}));
  for (CallBase *CB : Calls)
    if (Function *Callee = CB->getCalledFunction())
      if (Function *Clone = Clones.lookup(Callee))
        redirectToClone(*CB, Clone, Tail);

}

/// The thunk, __ws_thunk.<Base>: what a thief runs, void(ws_slot *self,
/// ws_slot *tail).  When the task may throw, it catches the exception for
/// the owner's join: nothing may unwind into the scheduler.
static void emitThunk(SpawnSite &S, const std::string &Base) {
  Function &Parent = *S.Begin->getFunction();
  Module &M = *Parent.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *PtrTy = PointerType::getUnqual(Ctx);
  S.Thunk = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {PtrTy, PtrTy}, false),
                             GlobalValue::InternalLinkage, ThunkPrefix + Base, M);
  copyFunctionAttributes(Parent, *S.Thunk);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", S.Thunk));
  Value *Slot = S.Thunk->getArg(0);
  Value *Layout = layoutIn(S, B, Slot);
  SmallVector<Value *, 8> Args{S.Thunk->getArg(1)};
  append_range(Args, bodyArgs(S, Layout, nullptr, B));
  Value *R;
  if (S.MayThrow) {
    setCxxPersonality(*S.Thunk);
    S.Thunk->addFnAttr(Attribute::NoUnwind);
    auto *Done = BasicBlock::Create(Ctx, "done", S.Thunk);
    auto *Threw = BasicBlock::Create(Ctx, "threw", S.Thunk);
    R = B.CreateInvoke(S.Body, Done, Threw, Args);
    IRBuilder<> T(Threw);
    LandingPadInst *LP = T.CreateLandingPad(
        StructType::get(Ctx, {PtrTy, Type::getInt32Ty(Ctx)}), 1, "ws.exn");
    LP->addClause(ConstantPointerNull::get(PointerType::getUnqual(Ctx)));
    FunctionCallee TaskThrew = M.getOrInsertFunction(
        TaskThrewName, FunctionType::get(Type::getVoidTy(Ctx), {PtrTy, PtrTy}, false));
    T.CreateCall(TaskThrew, {Slot, T.CreateExtractValue(LP, 0)});
    T.CreateRetVoid();
    B.SetInsertPoint(Done);
  } else {
    R = B.CreateCall(S.Body, Args);
  }
  if (S.returnsValue())
    B.CreateStore(R, payload(B, Slot));
  B.CreateRetVoid();

}

bool outlineSpawn(SpawnSite &S, bool ValueTask, const CloneMap &Clones) {
  RegionSplit Split(S);
  if (!Split.run())
    return false;

  Function &Parent = *S.Begin->getFunction();
  Module &M = *Parent.getParent();
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();

  StoreInst *Result =
      ValueTask ? valueResultStore(S, Split.Task, Split.Temps, DL) : nullptr;
  // The instructions the body runs: the call alone for a value task.
  ArrayRef<Instruction *> Run = Split.Task;
  if (Result) {
    Run = Run.take_front(1);
    S.ResultPtr = Result->getPointerOperand();
    S.ResultTy = Result->getValueOperand()->getType();
    S.ResultAlign = Result->getAlign();
  }
  // Even where nothing leaves the parent (noexcept), its handlers may
  // catch what the task throws; a parent with neither (C) lets nothing
  // through.
  S.MayThrow = (!Parent.doesNotThrow() || Parent.hasPersonalityFn()) &&
               any_of(Run, [](Instruction *I) {
    auto *CB = dyn_cast<CallBase>(I);
    return CB && !CB->doesNotThrow();
  });

  // -fws-race: the task's store of its value through the address the
  // parent gave, marked (it goes into the body with its marks).
  if (S.Race && !Result && Split.Task.size() == 2 && Split.Temps.empty())
    if (auto *W = dyn_cast<StoreInst>(Split.Task[1]);
        W && W->getValueOperand() == S.Call && !W->isVolatile() && !W->isAtomic()) {
      W->setMetadata(ResultWriteMD, MDNode::get(Ctx, {}));
      S.ResultAddr = W->getPointerOperand();
    }
  if (!collectLiveIns(S, Run, Split.Temps))
    return false;
  std::string Base = (Parent.getName() + "." + Twine(S.Index)).str();
  layOut(S, DL, Ctx, "ws.task." + Base);

  emitBody(S, Run, Split.Temps, Clones, Base);
  emitThunk(S, Base);

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

AllocaInst *allocateFrame(const SpawnSite &S, IRBuilderBase &B) {
  AllocaInst *Frame = B.CreateAlloca(S.LayoutTy, nullptr, "ws.frame");
  Frame->setAlignment(std::max(S.LayoutAlign, Align(16)));
  return Frame;
}

CallInst *emitSpawn(SpawnSite &S, Value *Slot, FunctionCallee Push) {
  Module &M = *S.Begin->getModule();
  const DataLayout &DL = M.getDataLayout();
  IRBuilder<> B(S.End);
  B.SetCurrentDebugLocation(S.Begin->getDebugLoc());
  Value *Layout = payload(B, Slot);
  if (S.InFrame) {
    if (S.DynamicFrame)
      S.Frame = allocateFrame(S, B);
    B.CreateStore(S.Frame, Layout);
    Layout = S.Frame;
  }
  for (unsigned I = 0; I < S.LiveIns.size(); ++I) {
    Value *Field = fieldOf(S, B, Layout, I);
    if (Type *T = S.ByvalCopy[I])
      B.CreateMemCpy(Field, fieldAlign(S, I, DL), S.LiveIns[I],
                     S.ByvalAlign[I].value_or(Align(1)), DL.getTypeAllocSize(T));
    else if (StoreInst *St = B.CreateStore(S.LiveIns[I], Field); S.LiveIns[I] == S.ResultAddr)
      St->setMetadata(ResultAddrMD,
                      MDNode::get(M.getContext(), {ValueAsMetadata::get(S.Thunk)}));
  }
  // The run store is volatile: a thief needs it, and it is a store the
  // store-count analysis may rely on (its line is the slot's, which no
  // store hits again before the next take).
  B.CreateAlignedStore(S.Thunk, Slot, Align(WS_SLOT_SIZE), /*isVolatile=*/true)
      ->setMetadata(CountedStoreMD, MDNode::get(M.getContext(), {}));
  CallInst *Pushed = B.CreateCall(Push, {Slot});
  S.End->eraseFromParent();
  S.Begin->eraseFromParent();
  S.End = S.Begin = nullptr;
  return Pushed;
}

void callBody(const SpawnSite &S, Value *Tail, Value *Slot, IRBuilderBase &B,
              BasicBlock *Unwind) {
  SmallVector<Value *, 8> Args{Tail};
  append_range(Args, bodyArgs(S, Slot ? layoutIn(S, B, Slot) : nullptr, S.Frame, B));
  Value *R;
  if (Unwind) {
    Function *F = B.GetInsertBlock()->getParent();
    auto *Ran = BasicBlock::Create(B.getContext(), "ws.ran", F, Unwind);
    R = B.CreateInvoke(S.Body, Ran, Unwind, Args);
    B.SetInsertPoint(Ran);
  } else {
    R = B.CreateCall(S.Body, Args);
  }
  if (S.returnsValue())
    B.CreateAlignedStore(R, S.ResultPtr, S.ResultAlign);
}

bool setCxxPersonality(Function &F) {
  Module &M = *F.getParent();
  if (F.hasPersonalityFn()) {
    StringRef Name = F.getPersonalityFn()->stripPointerCasts()->getName();
    if (Name == CxxPersonalityName)
      return true;
    // C's personality reads the same tables, but runs cleanups only.
    if (Name != "__gcc_personality_v0") {
      errorIn(F, "ws_spawn: exceptions through a function whose personality "
                 "is " + Name + " are not supported (only C++'s)");
      return false;
    }
  }
  F.setPersonalityFn(cast<Constant>(
      M.getOrInsertFunction(CxxPersonalityName,
                            FunctionType::get(Type::getInt32Ty(M.getContext()), true))
          .getCallee()));
  return true;
}

void storeStolenResult(const SpawnSite &S, Value *Slot, IRBuilderBase &B) {
  if (!S.returnsValue())
    return;
  B.CreateAlignedStore(B.CreateLoad(S.ResultTy, payload(B, Slot), "ws.stolen.result"),
                       S.ResultPtr, S.ResultAlign);
}

CallBase *redirectToClone(CallBase &CB, Function *Clone, Value *Tail) {
  SmallVector<Value *, 8> Args{Tail};
  append_range(Args, CB.args());
  SmallVector<OperandBundleDef, 1> Bundles;
  CB.getOperandBundlesAsDefs(Bundles);
  CallBase *New;
  if (auto *II = dyn_cast<InvokeInst>(&CB))
    New = InvokeInst::Create(Clone, II->getNormalDest(), II->getUnwindDest(),
                             Args, Bundles, "", CB.getIterator());
  else
    New = CallInst::Create(Clone, Args, Bundles, "", CB.getIterator());
  New->takeName(&CB);
  New->setCallingConv(CB.getCallingConv());
  New->setDebugLoc(CB.getDebugLoc());
  if (MDNode *MD = CB.getMetadata(SyncCallMD))
    New->setMetadata(SyncCallMD, MD);
  // The call's attributes, with none for the tail in front.
  AttributeList AL = CB.getAttributes();
  SmallVector<AttributeSet, 8> ParamAttrs{AttributeSet()};
  for (unsigned I = 0; I < CB.arg_size(); ++I)
    ParamAttrs.push_back(AL.getParamAttrs(I));
  New->setAttributes(AttributeList::get(CB.getContext(), AL.getFnAttrs(),
                                        AL.getRetAttrs(), ParamAttrs));
  if (auto *CI = dyn_cast<CallInst>(&CB))
    cast<CallInst>(New)->setTailCallKind(CI->getTailCallKind());
  CB.replaceAllUsesWith(New);
  CB.eraseFromParent();
  return New;
}

} // namespace wsff
