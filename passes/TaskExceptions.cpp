//===- TaskExceptions.cpp - C++ exceptions at a function's syncs ----------===//

#include "TaskExceptions.h"

#include "AbiNames.h"
#include "SpawnRegion.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace wsff {

static LandingPadInst *landingPad(IRBuilderBase &B) {
  LLVMContext &Ctx = B.getContext();
  return B.CreateLandingPad(StructType::get(Ctx, {B.getPtrTy(), B.getInt32Ty()}),
                            1, "ws.exn");
}

InvokeInst *addUnwindCleanup(CallInst &Call) {
  Function &F = *Call.getFunction();
  auto *Cleanup = BasicBlock::Create(F.getContext(), "ws.unwind", &F);
  IRBuilder<> B(Cleanup);
  B.SetCurrentDebugLocation(Call.getDebugLoc());
  LandingPadInst *LP = landingPad(B);
  LP->setCleanup(true);
  B.CreateResume(LP);
  BasicBlock *At = Call.getParent();
  changeToInvokeAndSplitBasicBlock(&Call, Cleanup);
  return cast<InvokeInst>(At->getTerminator());
}

/// LP's block split after LP (its code, ws.unwind.synced, now begins with
/// a phi of the exception) and a second pad beside it, Name: a clone of LP
/// that branches there too, another way into the same code.  Returns it.
static BasicBlock *padBeside(LandingPadInst &LP, const Twine &Name) {
  Function &F = *LP.getFunction();
  BasicBlock *PadBB = LP.getParent();
  BasicBlock *Cont = SplitBlock(PadBB, LP.getNextNode(), static_cast<DominatorTree *>(nullptr),
                                nullptr, nullptr, "ws.unwind.synced");
  auto *Pad = BasicBlock::Create(F.getContext(), Name, &F, Cont);
  auto *LP2 = cast<LandingPadInst>(LP.clone());
  LP2->insertInto(Pad, Pad->end());
  BranchInst::Create(Cont, Pad)->setDebugLoc(LP.getDebugLoc());
  PHINode *Exn = PHINode::Create(LP.getType(), 2, "ws.exn.inflight");
  Exn->insertInto(Cont, Cont->begin());
  LP.replaceUsesWithIf(Exn, [&](Use &U) { return U.getUser() != Exn; });
  Exn->addIncoming(&LP, PadBB);
  Exn->addIncoming(LP2, Pad);
  return Pad;
}

InvokeInst *syncAtLandingPad(LandingPadInst &LP, Function *SyncFn, DebugLoc Loc) {
  BasicBlock *PadBB = LP.getParent();
  BasicBlock *TaskPad = padBeside(LP, "ws.unwind.task");
  BasicBlock *Cont = TaskPad->getSingleSuccessor();
  PadBB->getTerminator()->eraseFromParent();
  auto *Sync = InvokeInst::Create(SyncFn, Cont, TaskPad, {}, "", PadBB);
  Sync->setDebugLoc(Loc);
  return Sync;
}

BasicBlock *destroyingPad(CallInst &Destroy, BasicBlock *Handler) {
  Function &F = *Destroy.getFunction();
  if (!setCxxPersonality(F))
    return Handler;
  BasicBlock *Pad;
  if (Handler) { // Handler's own code after its pad: reached from both pads
    Pad = padBeside(*cast<LandingPadInst>(Handler->getFirstNonPHI()), "ws.unwind.destroy");
  } else {
    Pad = BasicBlock::Create(F.getContext(), "ws.unwind.destroy", &F);
    IRBuilder<> B(Pad);
    B.CreateResume(landingPad(B));
  }
  auto *LP = cast<LandingPadInst>(Pad->getFirstNonPHI());
  LP->setCleanup(true); // the object is destroyed whatever the handler catches
  Instruction *Call = Destroy.clone();
  Call->insertBefore(Pad->getTerminator());
  return Pad;
}

BasicBlock *unwindOf(Instruction *At) {
  auto *II = dyn_cast<InvokeInst>(At);
  return II ? II->getUnwindDest() : nullptr;
}

void addUnwindPredecessor(BasicBlock *Unwind, BasicBlock *NewPred,
                          Instruction *At) {
  for (PHINode &Phi : Unwind->phis())
    Phi.addIncoming(Phi.getIncomingValueForBlock(At->getParent()), NewPred);
}

FunctionCallee TaskExceptions::runtime(StringRef Name, Type *Ret,
                                       ArrayRef<Type *> Params) {
  return F.getParent()->getOrInsertFunction(Name,
                                            FunctionType::get(Ret, Params, false));
}

AllocaInst *TaskExceptions::kept() {
  if (!Kept) {
    BasicBlock &Entry = F.getEntryBlock();
    IRBuilder<> B(&Entry, Entry.begin());
    Kept = B.CreateAlloca(B.getPtrTy(), nullptr, "ws.exn.kept");
  }
  return Kept;
}

void TaskExceptions::startSync(Instruction *At) {
  IRBuilder<> B(At);
  B.CreateStore(ConstantPointerNull::get(B.getPtrTy()), kept());
}

void TaskExceptions::keep(IRBuilderBase &B, Value *Captured) {
  // Taken back most recent first: what is kept is from a later task.
  Value *Later = B.CreateLoad(B.getPtrTy(), kept(), "ws.exn.later");
  B.CreateCall(runtime(ExceptionDropName, B.getVoidTy(), {B.getPtrTy()}), {Later});
  B.CreateStore(Captured, kept());
}

BasicBlock *TaskExceptions::catchCaptured(IRBuilderBase &B, Value *&Captured,
                                           BasicBlock *Before) {
  setCxxPersonality(F);
  auto *Caught = BasicBlock::Create(F.getContext(), "ws.caught", &F, Before);
  B.SetInsertPoint(Caught);
  LandingPadInst *LP = landingPad(B);
  LP->addClause(ConstantPointerNull::get(B.getPtrTy()));
  Captured = B.CreateCall(
      runtime(ExceptionCaptureName, B.getPtrTy(), {B.getPtrTy()}),
      {B.CreateExtractValue(LP, 0)}, "ws.exn.captured");
  return Caught;
}

BasicBlock *TaskExceptions::catchInto(BasicBlock *Cont) {
  IRBuilder<> B(F.getContext());
  Value *Captured;
  BasicBlock *Caught = catchCaptured(B, Captured, Cont);
  keep(B, Captured);
  B.CreateBr(Cont);
  return Caught;
}

void TaskExceptions::rethrow(IRBuilderBase &B, Value *Captured,
                             BasicBlock *Unwind, Instruction *At) {
  FunctionCallee Rethrow =
      runtime(ExceptionRethrowName, B.getVoidTy(), {B.getPtrTy()});
  if (auto *Fn = dyn_cast<Function>(Rethrow.getCallee())) // (a module may declare it otherwise)
    Fn->setDoesNotReturn();
  if (Unwind || F.doesNotThrow()) {
    auto *Never = BasicBlock::Create(F.getContext(), "ws.never", &F);
    if (Unwind)
      addUnwindPredecessor(Unwind, B.GetInsertBlock(), At);
    else
      Unwind = terminatePad();
    B.CreateInvoke(Rethrow, Never, Unwind, {Captured});
    IRBuilder<>(Never).CreateUnreachable();
  } else {
    B.CreateCall(Rethrow, {Captured});
    B.CreateUnreachable();
  }
}

BasicBlock *TaskExceptions::terminatePad() {
  if (Terminate)
    return Terminate;
  setCxxPersonality(F);
  Terminate = BasicBlock::Create(F.getContext(), "ws.terminate", &F);
  IRBuilder<> B(Terminate);
  landingPad(B)->addClause(ConstantPointerNull::get(B.getPtrTy()));
  FunctionCallee Fn = runtime("_ZSt9terminatev", B.getVoidTy(), {});
  if (auto *T = dyn_cast<Function>(Fn.getCallee())) {
    T->setDoesNotReturn();
    T->setDoesNotThrow();
  }
  B.CreateCall(Fn);
  B.CreateUnreachable();
  return Terminate;
}

void TaskExceptions::finishSync(IRBuilderBase &B, Instruction *At,
                                BasicBlock *Unwind, LandingPadInst *InFlight) {
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Here = B.GetInsertBlock();
  auto *Threw = BasicBlock::Create(Ctx, "ws.threw", &F, Here->getNextNode());
  auto *Clear = BasicBlock::Create(Ctx, "ws.clear", &F, Threw->getNextNode());
  Value *Captured = B.CreateLoad(B.getPtrTy(), kept(), "ws.exn");
  B.CreateCondBr(B.CreateIsNotNull(Captured), Threw, Clear);
  B.SetInsertPoint(Threw);
  Value *OnItsWay = InFlight;
  if (auto *Resume = dyn_cast<ResumeInst>(At))
    OnItsWay = Resume->getValue();
  if (OnItsWay) {
    // The function's own exception, on its way out, is serially later
    // than its tasks': catch it and let it go.
    Value *Own = B.CreateCall(
        runtime(ExceptionCaptureName, B.getPtrTy(), {B.getPtrTy()}),
        {B.CreateExtractValue(OnItsWay, 0)}, "ws.exn.own");
    B.CreateCall(runtime(ExceptionDropName, B.getVoidTy(), {B.getPtrTy()}), {Own});
  }
  rethrow(B, Captured, Unwind, At);
  B.SetInsertPoint(Clear);
}

} // namespace wsff
