//===- SpawnMutator.cpp - Spawn regions and syncs, good and bad -----------===//

#include "SpawnMutator.h"

#include "RandomIR.h"

#include "AbiNames.h"

#include "llvm/FuzzMutate/RandomIRBuilder.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wsfuzz {
namespace {

/// The markers, declared as <ws/ws.h> declares them (unless the module
/// already has something else under the name: then that is called).
struct Builtins {
  FunctionCallee Begin, End, Sync;
  explicit Builtins(Module &M) {
    LLVMContext &Ctx = M.getContext();
    Type *Ptr = PointerType::getUnqual(Ctx);
    Type *Void = Type::getVoidTy(Ctx);
    Begin = M.getOrInsertFunction(wsff::SpawnBeginName,
                                  FunctionType::get(Void, {Ptr}, true));
    End = M.getOrInsertFunction(wsff::SpawnEndName, FunctionType::get(Void, false));
    Sync = M.getOrInsertFunction(wsff::SyncName, FunctionType::get(Void, false));
  }
};

FunctionCallee personality(Module &M) {
  return M.getOrInsertFunction(
      "__gxx_personality_v0",
      FunctionType::get(Type::getInt32Ty(M.getContext()), true));
}

/// A landing pad block that resumes, or rejoins at Rejoin.
BasicBlock *landingPad(Function &F, BasicBlock *Rejoin, Rng &R) {
  LLVMContext &Ctx = F.getContext();
  if (!F.hasPersonalityFn())
    F.setPersonalityFn(cast<Constant>(personality(*F.getParent()).getCallee()));
  BasicBlock *Pad = BasicBlock::Create(Ctx, "wsfuzz.lpad", &F);
  IRBuilder<> B(Pad);
  Type *PadTy = StructType::get(PointerType::getUnqual(Ctx), Type::getInt32Ty(Ctx));
  LandingPadInst *LP = B.CreateLandingPad(PadTy, 0);
  LP->setCleanup(true);
  if (Rejoin && chance(R, 50))
    B.CreateBr(Rejoin);
  else
    B.CreateResume(LP);
  return Pad;
}

/// Parameter attributes a C or C++ ABI puts on calls: byval and sret
/// pointers, extensions, noundef.
void addParamAttributes(Function &Fn, Rng &R) {
  LLVMContext &Ctx = Fn.getContext();
  FunctionType *FT = Fn.getFunctionType();
  for (unsigned I = 0; I < FT->getNumParams(); ++I) {
    Type *T = FT->getParamType(I);
    if (T->isPointerTy()) {
      if (I == 0 && FT->getReturnType()->isVoidTy() && chance(R, 25))
        Fn.addParamAttr(I, Attribute::getWithStructRetType(Ctx, randomType(Ctx, R)));
      else if (chance(R, 30)) {
        Fn.addParamAttr(I, Attribute::getWithByValType(Ctx, randomType(Ctx, R)));
        if (chance(R, 50))
          Fn.addParamAttr(I, Attribute::getWithAlignment(Ctx, Align(1u << below(R, 5))));
      } else if (chance(R, 20))
        Fn.addParamAttr(I, Attribute::NoAlias);
    } else if (T->isIntegerTy(8) || T->isIntegerTy(16)) {
      if (chance(R, 30))
        Fn.addParamAttr(I, chance(R, 50) ? Attribute::SExt : Attribute::ZExt);
    }
    if (chance(R, 20))
      Fn.addParamAttr(I, Attribute::NoUndef);
  }
  if (chance(R, 30))
    Fn.addFnAttr(Attribute::NoUnwind);
  if (chance(R, 10))
    Fn.addFnAttr(Attribute::NoInline);
  if (chance(R, 5))
    Fn.setDoesNotAccessMemory(); // O2 may then delete the spawned call
}

FunctionType *randomFunctionType(ValuePool &Pool, LLVMContext &Ctx, Rng &R) {
  Type *Ret = chance(R, 30) ? Type::getVoidTy(Ctx)
              : chance(R, 50) ? Pool.typeOfSomeValue()
                              : randomType(Ctx, R);
  SmallVector<Type *, 6> Params;
  for (unsigned I = 0, N = below(R, 6); I < N; ++I)
    Params.push_back(Pool.typeOfSomeValue());
  return FunctionType::get(Ret, Params, chance(R, 10));
}

/// A new function: a declaration, or a definition returning an argument or
/// a constant (which the optimizer may inline into the task).
Function *newFunction(Module &M, FunctionType *FT, Rng &R) {
  Function *Fn = Function::Create(FT, GlobalValue::ExternalLinkage, "wsfuzz.fn", M);
  addParamAttributes(*Fn, R);
  if (chance(R, 60))
    return Fn;
  if (chance(R, 50))
    Fn->setLinkage(GlobalValue::InternalLinkage);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", Fn));
  Type *Ret = FT->getReturnType();
  if (Ret->isVoidTy()) {
    B.CreateRetVoid();
    return Fn;
  }
  for (Argument &A : Fn->args())
    if (A.getType() == Ret && !Fn->hasParamAttribute(A.getArgNo(), Attribute::ByVal)) {
      B.CreateRet(&A);
      return Fn;
    }
  B.CreateRet(randomConstant(Ret, R));
  return Fn;
}

/// What a spawn calls: the called operand and the function the begin marker
/// names (a function, or a pointer for an indirect spawn).
struct Callee {
  FunctionType *FT = nullptr;
  Value *Called = nullptr;
  Value *Target = nullptr;
};

bool takesPlainValues(const Function &Fn) {
  FunctionType *FT = Fn.getFunctionType();
  auto Plain = [](Type *T) {
    return T->isVoidTy() || T->isIntOrIntVectorTy() || T->isFPOrFPVectorTy() ||
           T->isPointerTy() || isa<StructType>(T) || isa<ArrayType>(T);
  };
  if (!Plain(FT->getReturnType()) || isa<ScalableVectorType>(FT->getReturnType()))
    return false;
  for (Type *T : FT->params())
    if (!Plain(T) || T->isVoidTy() || isa<ScalableVectorType>(T))
      return false;
  // Pointer arguments with these need more than a pointer value.
  for (unsigned I = 0; I < FT->getNumParams(); ++I)
    for (Attribute::AttrKind K : {Attribute::InAlloca, Attribute::Preallocated,
                                  Attribute::SwiftError, Attribute::ImmArg})
      if (Fn.hasParamAttribute(I, K))
        return false;
  return true;
}

Callee chooseCallee(Function &Parent, ValuePool &Pool, Rng &R) {
  Module &M = *Parent.getParent();
  LLVMContext &Ctx = M.getContext();
  switch (below(R, 10)) {
  case 0:
  case 1: { // one of the module's own functions, the parent included
    SmallVector<Function *, 8> Fns;
    for (Function &Fn : M)
      if (!Fn.isIntrinsic() && !Fn.getName().starts_with("__ws_") &&
          takesPlainValues(Fn))
        Fns.push_back(&Fn);
    if (!Fns.empty()) {
      Function *Fn = oneOf(R, Fns);
      return {Fn->getFunctionType(), Fn, Fn};
    }
    break;
  }
  case 2: { // indirect, through a pointer of the parent
    Value *P = Pool.get(PointerType::getUnqual(Ctx));
    return {randomFunctionType(Pool, Ctx, R), P, P};
  }
  case 3: { // indirect, through a function pointer loaded from a global
    FunctionType *FT = randomFunctionType(Pool, Ctx, R);
    auto *Slot = new GlobalVariable(M, PointerType::getUnqual(Ctx), false,
                                    GlobalValue::InternalLinkage,
                                    newFunction(M, FT, R), "wsfuzz.fnptr");
    // Loaded at the spawn, as `fp` in ws_spawn(r, fp, ...) would be.
    return {FT, Slot, nullptr};
  }
  case 4: { // an alias of a function
    FunctionType *FT = randomFunctionType(Pool, Ctx, R);
    Function *Fn = newFunction(M, FT, R);
    auto *A = GlobalAlias::create(FT, 0, GlobalValue::ExternalLinkage,
                                  "wsfuzz.alias", Fn, &M);
    return {FT, A, chance(R, 50) ? static_cast<Value *>(A) : Fn};
  }
  default:
    break;
  }
  FunctionType *FT = randomFunctionType(Pool, Ctx, R);
  Function *Fn = newFunction(M, FT, R);
  return {FT, Fn, Fn};
}

/// A spawn region as built, for the ways of breaking it.
struct Region {
  CallInst *Begin = nullptr;
  CallBase *Call = nullptr;
  CallInst *End = nullptr;
};

class RegionBuilder {
public:
  RegionBuilder(Function &F, Instruction &At, Rng &R)
      : F(F), M(*F.getParent()), Ctx(F.getContext()), R(R), Pool(At, R),
        WS(M), At(At) {}

  /// Builds a well-formed spawn at At, under a random placement.
  Region build();
  /// Breaks it one random way.
  void breakRegion(Region &Reg);
  ValuePool &pool() { return Pool; }

private:
  BasicBlock *newBlock(const Twine &Name) {
    return BasicBlock::Create(Ctx, Name, &F);
  }
  Value *argument(IRBuilder<> &B, Type *T);
  Value *resultAddress(IRBuilder<> &B, Type *RetTy);
  void emitRegion(IRBuilder<> &B, Region &Reg, BasicBlock *Exit);

  Function &F;
  Module &M;
  LLVMContext &Ctx;
  Rng &R;
  ValuePool Pool;
  Builtins WS;
  Instruction &At;
};

Value *RegionBuilder::argument(IRBuilder<> &B, Type *T) {
  Value *V = Pool.get(T);
  // Sometimes the argument is computed inside the region, as `n - 1` is.
  if (chance(R, 20) && T->isIntOrIntVectorTy() && !isa<Constant>(V))
    return B.CreateAdd(V, ConstantInt::get(T, 1), "wsfuzz.arg");
  if (chance(R, 20) && T->isFPOrFPVectorTy() && !isa<Constant>(V))
    return B.CreateFNeg(V, "wsfuzz.arg");
  return V;
}

Value *RegionBuilder::resultAddress(IRBuilder<> &B, Type *RetTy) {
  if (RetTy->isVoidTy() || chance(R, 15))
    return ConstantPointerNull::get(B.getPtrTy());
  switch (below(R, 4)) {
  case 0:
    return Pool.get(B.getPtrTy()); // an argument's or a global's field
  case 1: // &a[i], computed before the spawn as the macro does
    return B.CreateGEP(RetTy, entryAlloca(F, ArrayType::get(RetTy, 4), "wsfuzz.res"),
                       {B.getInt64(0), B.getInt64(below(R, 4))}, "wsfuzz.resp");
  default:
    return entryAlloca(F, RetTy, "wsfuzz.res");
  }
}

void RegionBuilder::emitRegion(IRBuilder<> &B, Region &Reg, BasicBlock *Exit) {
  Callee C = chooseCallee(F, Pool, R);
  Type *RetTy = C.FT->getReturnType();
  auto *Fn = dyn_cast<Function>(C.Called);
  // C++ constructs a returned aggregate in place: the result address is
  // the sret argument.
  bool InPlace = Fn && Fn->hasParamAttribute(0, Attribute::StructRet) && chance(R, 70);
  Value *Res = InPlace ? entryAlloca(F, Fn->getParamStructRetType(0), "wsfuzz.res")
                       : resultAddress(B, RetTy);
  if (!C.Target) // a function pointer loaded before the spawn
    C.Called = C.Target = B.CreateLoad(B.getPtrTy(), C.Called, "wsfuzz.fp");
  Reg.Begin = B.CreateCall(WS.Begin, {Res, C.Target});

  SmallVector<Value *, 8> Args;
  for (unsigned I = 0; I < C.FT->getNumParams(); ++I) {
    Type *T = C.FT->getParamType(I);
    if (I == 0 && InPlace)
      Args.push_back(Res);
    else if (Fn && Fn->hasParamAttribute(I, Attribute::ByVal) && chance(R, 60))
      Args.push_back(entryAlloca(F, Fn->getParamByValType(I), "wsfuzz.byval"));
    else
      Args.push_back(argument(B, T));
  }
  if (C.FT->isVarArg())
    for (unsigned I = 0, N = below(R, 3); I < N; ++I)
      Args.push_back(argument(B, Pool.typeOfSomeValue()));
  // A `?:` in an argument: the region branches before the call.
  if (C.FT->getNumParams() && chance(R, 15)) {
    unsigned K = below(R, C.FT->getNumParams());
    Type *T = C.FT->getParamType(K);
    BasicBlock *Then = newBlock("wsfuzz.arg.then");
    BasicBlock *Else = newBlock("wsfuzz.arg.else");
    BasicBlock *Join = newBlock("wsfuzz.arg.join");
    B.CreateCondBr(Pool.condition(B), Then, Else);
    BranchInst::Create(Join, Then);
    BranchInst::Create(Join, Else);
    B.SetInsertPoint(Join);
    PHINode *Phi = B.CreatePHI(T, 2, "wsfuzz.sel");
    Phi->addIncoming(Pool.get(T), Then);
    Phi->addIncoming(Pool.get(T), Else);
    Args[K] = Phi;
  }

  if (chance(R, 20)) {
    BasicBlock *Cont = newBlock("wsfuzz.spawn.cont");
    Reg.Call = B.CreateInvoke(C.FT, C.Called, Cont, landingPad(F, Exit, R), Args);
    B.SetInsertPoint(Cont);
  } else {
    Reg.Call = B.CreateCall(C.FT, C.Called, Args);
  }
  if (!Fn) // an indirect call carries its ABI attributes itself
    for (unsigned I = 0; I < C.FT->getNumParams(); ++I)
      if (C.FT->getParamType(I)->isPointerTy() && chance(R, 20))
        Reg.Call->addParamAttr(I, Attribute::getWithByValType(Ctx, randomType(Ctx, R)));

  if (!RetTy->isVoidTy() && !isa<ConstantPointerNull>(Res)) {
    Value *V = Reg.Call;
    if (RetTy->isIntOrIntVectorTy() && chance(R, 30))
      V = B.CreateAdd(V, ConstantInt::get(RetTy, 1), "wsfuzz.conv");
    B.CreateStore(V, Res);
  }
  Reg.End = B.CreateCall(WS.End);
  if (chance(R, 30))
    B.CreateCall(WS.Sync);
  B.CreateBr(Exit);
}

Region RegionBuilder::build() {
  Region Reg;
  BasicBlock *Head = At.getParent();
  BasicBlock *Tail = Head->splitBasicBlock(&At, "wsfuzz.after");
  Head->getTerminator()->eraseFromParent();
  BasicBlock *Body = newBlock("wsfuzz.spawn");
  IRBuilder<> HB(Head);
  BasicBlock *Exit = Tail;
  switch (below(R, 8)) {
  case 0:
  case 1: // under an if
    HB.CreateCondBr(Pool.condition(HB), Body, Tail);
    break;
  case 2:
  case 3: { // in a loop of one to four iterations
    BasicBlock *Header = newBlock("wsfuzz.loop");
    BasicBlock *Latch = newBlock("wsfuzz.latch");
    HB.CreateBr(Header);
    IRBuilder<> LB(Header);
    PHINode *I = LB.CreatePHI(LB.getInt64Ty(), 2, "wsfuzz.i");
    LB.CreateCondBr(LB.CreateICmpULT(I, LB.getInt64(1 + below(R, 4))), Body, Tail);
    LB.SetInsertPoint(Latch);
    Value *Next = LB.CreateAdd(I, LB.getInt64(1));
    LB.CreateBr(Header);
    I->addIncoming(LB.getInt64(0), Head);
    I->addIncoming(Next, Latch);
    Pool.add(I);
    Exit = Latch;
    break;
  }
  case 4: // in code no path reaches
    HB.CreateBr(Tail);
    break;
  default: // straight-line
    HB.CreateBr(Body);
    break;
  }
  IRBuilder<> B(Body);
  emitRegion(B, Reg, Exit);
  return Reg;
}

void RegionBuilder::breakRegion(Region &Reg) {
  IRBuilder<> B(Reg.End);
  switch (below(R, 13)) {
  case 0: // no end
    Reg.End->eraseFromParent();
    return;
  case 1: // two ends
    Reg.End->clone()->insertBefore(Reg.End);
    return;
  case 2: { // the end on one path only
    BasicBlock *EndBB = Reg.End->getParent();
    BasicBlock *AtEnd = EndBB->splitBasicBlock(Reg.End, "wsfuzz.end");
    BasicBlock *After = AtEnd->splitBasicBlock(Reg.End->getNextNode(), "wsfuzz.noend");
    EndBB->getTerminator()->eraseFromParent();
    IRBuilder<> EB(EndBB);
    EB.CreateCondBr(Pool.condition(EB), AtEnd, After);
    return;
  }
  case 3: { // the result handled after a branch
    BasicBlock *CallBB = Reg.End->getParent();
    BasicBlock *After = CallBB->splitBasicBlock(Reg.End, "wsfuzz.split");
    CallBB->getTerminator()->eraseFromParent();
    IRBuilder<> CB(CallBB);
    CB.CreateCondBr(Pool.condition(CB), After, After);
    return;
  }
  case 4: { // another callee of the same type
    Function *Other = newFunction(M, Reg.Call->getFunctionType(), R);
    Reg.Call->setCalledFunction(Other);
    return;
  }
  case 5: // a side effect after the call that does not use its result
    B.CreateStore(B.getInt32(below(R, 100)),
                  new GlobalVariable(M, B.getInt32Ty(), false,
                                     GlobalValue::ExternalLinkage, nullptr,
                                     "wsfuzz.global"),
                  /*isVolatile=*/chance(R, 50));
    return;
  case 6: // the result used after the end
    if (!Reg.Call->getType()->isVoidTy()) {
      B.SetInsertPoint(Reg.End->getNextNode());
      B.CreateStore(Reg.Call, entryAlloca(F, Reg.Call->getType(), "wsfuzz.escape"));
    }
    return;
  case 7: { // begin with the wrong number of arguments
    SmallVector<Value *, 3> Args{Reg.Begin->getArgOperand(0)};
    if (chance(R, 50)) {
      Args.append(Reg.Begin->arg_begin() + 1, Reg.Begin->arg_end());
      Args.push_back(Pool.get(Pool.typeOfSomeValue()));
    }
    CallInst *Bad = CallInst::Create(Reg.Begin->getFunctionType(),
                                     Reg.Begin->getCalledOperand(), Args, "", Reg.Begin);
    Reg.Begin->eraseFromParent();
    Reg.Begin = Bad;
    return;
  }
  case 8: { // begin naming something that is not the callee
    Value *Bad;
    switch (below(R, 4)) {
    case 0:
      Bad = B.getInt64(below(R, 100));
      break;
    case 1:
      Bad = ConstantPointerNull::get(B.getPtrTy());
      break;
    case 2:
      Bad = WS.Sync.getCallee();
      break;
    default:
      Bad = newFunction(M, FunctionType::get(B.getVoidTy(), false), R);
      break;
    }
    Reg.Begin->setArgOperand(1, Bad);
    return;
  }
  case 9: // a sync inside
    B.SetInsertPoint(chance(R, 50) ? static_cast<Instruction *>(Reg.Call) : Reg.End);
    B.CreateCall(WS.Sync);
    return;
  case 10: // a spawn inside a spawn
    Reg.Begin->clone()->insertBefore(Reg.Call);
    return;
  case 11: { // a return between the call and the end
    BasicBlock *EndBB = Reg.End->getParent();
    EndBB->splitBasicBlock(Reg.End, "wsfuzz.dead");
    EndBB->getTerminator()->eraseFromParent();
    Type *Ret = F.getReturnType();
    ReturnInst::Create(Ctx, Ret->isVoidTy() ? nullptr : PoisonValue::get(Ret), EndBB);
    return;
  }
  default: // the end before the begin: in a loop, a cycle through the spawn
    Reg.End->moveBefore(Reg.Begin);
    return;
  }
}

/// A sync, sometimes invoked (checkBuiltin turns that into a call).
void insertSync(Function &F, Instruction &At, Rng &R) {
  Builtins WS(*F.getParent());
  if (!chance(R, 10)) {
    CallInst::Create(WS.Sync, "", &At);
    return;
  }
  BasicBlock *Head = At.getParent();
  BasicBlock *Tail = Head->splitBasicBlock(&At, "wsfuzz.synced");
  Head->getTerminator()->eraseFromParent();
  InvokeInst::Create(WS.Sync, Tail, landingPad(F, Tail, R), {}, "", Head);
}

/// An invoke of a function that may throw, its landing pad resuming or
/// rejoining: a C++ function that spawns.
void insertInvoke(Function &F, Instruction &At, Rng &R) {
  Module &M = *F.getParent();
  FunctionCallee Thrower = M.getOrInsertFunction(
      "wsfuzz.may_throw", FunctionType::get(Type::getVoidTy(M.getContext()), false));
  BasicBlock *Head = At.getParent();
  BasicBlock *Tail = Head->splitBasicBlock(&At, "wsfuzz.nothrow");
  Head->getTerminator()->eraseFromParent();
  InvokeInst::Create(Thrower, Tail, landingPad(F, Tail, R), {}, "", Head);
}

} // namespace

void SpawnMutator::mutate(Function &F, RandomIRBuilder &IB) {
  Rng &R = IB.Rand;
  Instruction *At = randomInsertionPoint(F, R);
  if (!At)
    return;
  switch (below(R, 10)) {
  case 0:
  case 1:
    insertSync(F, *At, R);
    return;
  case 2:
    insertInvoke(F, *At, R);
    return;
  default: {
    RegionBuilder RB(F, *At, R);
    Region Reg = RB.build();
    if (chance(R, 25))
      RB.breakRegion(Reg);
    return;
  }
  }
}

} // namespace wsfuzz
