//===- ScaleCount.cpp - ws-scale-count: count IR instructions -------------===//

#include "ScaleCount.h"

#include "ScaleAbi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "ws-scale-count"

using namespace llvm;

namespace wsff {

namespace {

bool isHookCall(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  return F && isScaleHook(F->getName());
}

/// Instructions that stand for work.
bool counts(const Instruction &I) {
  if (isa<PHINode>(I))
    return false;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return !II->isAssumeLikeIntrinsic();
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return !isHookCall(*CB);
  return true;
}

/// Where the count so far must be added: before a call that may reach a
/// hook (any call but an intrinsic or inline asm), and at the end.
bool endsPiece(const Instruction &I) {
  if (I.isTerminator())
    return true;
  const auto *CB = dyn_cast<CallBase>(&I);
  return CB && !isa<IntrinsicInst>(CB) && !CB->isInlineAsm();
}

GlobalVariable *counter(Module &M) {
  if (auto *GV = M.getNamedGlobal(ScaleData_icount))
    return GV;
  auto *GV = new GlobalVariable(M, Type::getInt64Ty(M.getContext()), false,
                                GlobalValue::ExternalLinkage, nullptr,
                                ScaleData_icount, nullptr,
                                GlobalValue::InitialExecTLSModel);
  GV->setAlignment(Align(8));
  return GV;
}

/// The mark that tells the runtime this program counts instructions: one
/// weak definition per module, merged by the linker.
void markCounted(Module &M, int Mark) {
  if (M.getNamedGlobal(ScaleData_counted))
    return;
  Type *I32 = Type::getInt32Ty(M.getContext());
  new GlobalVariable(M, I32, true, GlobalValue::WeakAnyLinkage,
                     ConstantInt::get(I32, Mark), ScaleData_counted);
}

/// Counter += N right before I.
void addBefore(Instruction *I, uint64_t N, GlobalVariable *Counter) {
  IRBuilder<> B(I);
  Type *I64 = B.getInt64Ty();
  Value *Addr = B.CreateThreadLocalAddress(Counter);
  Value *Old = B.CreateLoad(I64, Addr, "ws.icount");
  B.CreateStore(B.CreateAdd(Old, ConstantInt::get(I64, N)), Addr);
}

void countBlock(BasicBlock &BB, GlobalVariable *Counter) {
  SmallVector<std::pair<Instruction *, uint64_t>, 8> Pieces;
  uint64_t N = 0;
  for (Instruction &I : BB) {
    if (counts(I))
      ++N;
    if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->isMustTailCall()) {
      // Nothing may come between it and the ret: the ret counts here.
      Pieces.push_back({CI, N + 1});
      break;
    }
    if (endsPiece(I)) {
      // A catchswitch is a block of its own: its one instruction is lost.
      if (N && !I.isEHPad())
        Pieces.push_back({&I, N});
      N = 0;
    }
  }
  for (auto [I, Count] : Pieces)
    addBefore(I, Count, Counter);
}

} // namespace

PreservedAnalyses ScaleCountPass::run(Module &M, ModuleAnalysisManager &) {
  GlobalVariable *Counter = counter(M);
  markCounted(M, Mark);
  for (Function &F : M)
    for (BasicBlock &BB : F)
      countBlock(BB, Counter);
  return PreservedAnalyses::none();
}

} // namespace wsff
