//===- SpawnClones.cpp - ws-lower: a spawning function's clone ------------===//

#include "SpawnClones.h"

#include "AbiNames.h"
#include "SpawnRegion.h"
#include "TaskExceptions.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wsff {

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
  // The closure is the runtime's hand-over, not the program's memory: no
  // -fws-race check (the lowering's own memory carries !nosanitize).
  MDNode *Skip = MDNode::get(Ctx, {});
  auto Mark = [&](BasicBlock &BB) {
    for (Instruction &I : BB)
      if (isa<LoadInst>(I) || isa<StoreInst>(I))
        I.setMetadata(LLVMContext::MD_nosanitize, Skip);
  };
  for (BasicBlock &BB : *Thunk)
    Mark(BB);
  for (BasicBlock &BB : F)
    Mark(BB); // F is the entry point: nothing but the hand-over and the call
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
                       F.getName() + CloneSuffix, &M);
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

  // Labels whose address the body takes (&&label, a computed goto's
  // table) move with it: the constants must name the clone, or they are
  // left pointing into a function that no longer holds the blocks.
  SmallVector<std::pair<BlockAddress *, BasicBlock *>, 4> Labels;
  for (BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      if (BlockAddress *BA = BlockAddress::lookup(&BB))
        Labels.push_back({BA, &BB});
  Clone->splice(Clone->begin(), &F);
  for (auto [BA, BB] : Labels) {
    BA->replaceAllUsesWith(BlockAddress::get(Clone, BB));
    BA->destroyConstant();
  }
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
  // A coroutine's body, with its suspensions, is the clone's now.
  F.removeFnAttr(Attribute::PresplitCoroutine);
  // The entry point reads the tail and runs spawning code: whatever the
  // user promised about F's memory holds for neither.
  dropAttributesTheRuntimeBreaks(F);
  return Clone;
}

} // namespace wsff
