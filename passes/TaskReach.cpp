//===- TaskReach.cpp - Which locals a task can reach ----------------------===//

#include "TaskReach.h"

#include "AbiNames.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <cstdlib>

using namespace llvm;

namespace wsff {

/// A callee's kind, from its Itanium name.
static CalleeKind classify(const Function &Fn) {
  StringRef Name = Fn.getName();
  // std::move, std::forward, std::addressof: the pointer they are given.
  for (StringRef Id : {"_ZSt4moveI", "_ZSt7forwardI", "_ZSt9addressofI",
                       "_ZSt11__addressofI"})
    if (Name.starts_with(Id))
      return CalleeKind::Identity;
  if (!Name.starts_with("_Z"))
    return CalleeKind::Plain;
  ItaniumPartialDemangler D;
  std::string Mangled = Name.str(); // the demangler keeps pointers into it
  if (D.partialDemangle(Mangled.c_str()) || !D.isCtorOrDtor())
    return CalleeKind::Plain;
  auto Take = [](char *S) {
    std::string R = S ? S : "";
    std::free(S);
    return R;
  };
  std::string Base = Take(D.getFunctionBaseName(nullptr, nullptr));
  if (!Base.empty() && Base[0] == '~')
    return CalleeKind::Destructor;
  // A copy or move constructor: one parameter, `C const&` or `C&&`.
  std::string Class = Take(D.getFunctionDeclContextName(nullptr, nullptr));
  std::string Params = Take(D.getFunctionParameters(nullptr, nullptr));
  StringRef P = Params;
  if (!P.consume_front("(") || !P.consume_back(")"))
    return CalleeKind::Constructor;
  if (!P.consume_back(" const&") && !P.consume_back("&&"))
    return CalleeKind::Constructor;
  StringRef C = Class;
  if (P == C || (C.ends_with(P) && C.drop_back(P.size()).ends_with("::")))
    return CalleeKind::CopyOrMove;
  return CalleeKind::Constructor;
}

static bool isIdentityIntrinsic(const CallBase &CB) {
  if (auto *II = dyn_cast<IntrinsicInst>(&CB))
    switch (II->getIntrinsicID()) {
    case Intrinsic::launder_invariant_group:
    case Intrinsic::strip_invariant_group:
    case Intrinsic::ptrmask:
      return true;
    default:
      break;
    }
  return false;
}

/// A fresh object of the function: a local, or memory an allocation
/// function (noalias result) returned.
static bool isObject(Value *V) {
  if (isa<AllocaInst>(V))
    return true;
  auto *CB = dyn_cast<CallBase>(V);
  return CB && CB->hasRetAttr(Attribute::NoAlias);
}

/// The values P may be derived from by pointer arithmetic and casts:
/// objects (allocas, fresh heap memory), loads, other instructions.
void TaskReach::bases(Value *P, SmallVectorImpl<Value *> &Out) {
  SmallVector<Value *, 8> Work{P};
  SmallPtrSet<Value *, 8> Seen{P};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    auto Push = [&](Value *W) {
      if (Seen.insert(W).second)
        Work.push_back(W);
    };
    if (auto *GEP = dyn_cast<GEPOperator>(V)) {
      Push(GEP->getPointerOperand());
    } else if (auto *Cast = dyn_cast<Operator>(V);
               Cast && (Cast->getOpcode() == Instruction::BitCast ||
                        Cast->getOpcode() == Instruction::AddrSpaceCast)) {
      Push(Cast->getOperand(0));
    } else if (auto *Phi = dyn_cast<PHINode>(V)) {
      for (Value *In : Phi->incoming_values())
        Push(In);
    } else if (auto *Sel = dyn_cast<SelectInst>(V)) {
      Push(Sel->getTrueValue());
      Push(Sel->getFalseValue());
    } else if (auto *CB = dyn_cast<CallBase>(V);
               CB && Kinds.of(*CB) == CalleeKind::Identity && CB->arg_size()) {
      Push(CB->getArgOperand(0));
    } else if (isa<Instruction>(V)) {
      Out.push_back(V);
    }
    // Arguments, globals and constants: memory the function did not
    // allocate.
  }
}

void TaskReach::addr(Value *P) {
  if (!Done.insert({P, Addr}).second)
    return;
  SmallVector<Value *, 4> Bs;
  bases(P, Bs);
  for (Value *B : Bs) {
    if (isObject(B)) {
      if (auto *A = dyn_cast<AllocaInst>(B))
        Allocas.insert(A);
      content(B, /*Deref=*/false); // and whatever it holds
    } else if (auto *L = dyn_cast<LoadInst>(B)) {
      if (AllocaInst *A = dyn_cast<AllocaInst>(getUnderlyingObject(L->getPointerOperand())))
        Shared.insert(A);
      contentOf(L->getPointerOperand());
    } else if (auto *CB = dyn_cast<CallBase>(B)) {
      // A result may point into anything given to the call.
      for (Value *Arg : CB->args())
        if (Arg->getType()->isPointerTy())
          addr(Arg);
    } else {
      copiedOperands(cast<Instruction>(B));
    }
  }
}

/// The bytes P points to are copied to the task: the pointers in them.
/// Through one load (a pointer read from a local: -O0 keeps every
/// pointer in one), the bytes behind the pointers stored there.
void TaskReach::contentOf(Value *P) {
  SmallVector<Value *, 4> Bs;
  bases(P, Bs);
  for (Value *B : Bs) {
    if (isObject(B)) {
      content(B, /*Deref=*/false);
    } else if (auto *L = dyn_cast<LoadInst>(B)) {
      SmallVector<Value *, 4> Holders;
      bases(L->getPointerOperand(), Holders);
      for (Value *H : Holders)
        if (isObject(H))
          content(H, /*Deref=*/true);
        else
          addr(B);
    } else {
      addr(B);
    }
  }
}

/// The value V (of any type) is copied to the task.
void TaskReach::copied(Value *V) {
  if (V->getType()->isPointerTy())
    return addr(V);
  if (!Done.insert({V, Copied}).second)
    return;
  if (auto *L = dyn_cast<LoadInst>(V))
    contentOf(L->getPointerOperand());
  else if (auto *I = dyn_cast<Instruction>(V))
    copiedOperands(I);
}
void TaskReach::copiedOperands(Instruction *I) {
  for (Value *Op : I->operands())
    if (!isa<Constant>(Op) && !isa<BasicBlock>(Op))
      copied(Op);
}

/// What is written into object O reaches the task: its bytes, or with
/// Deref the bytes behind the pointers written into it.
void TaskReach::content(Value *O, bool Deref) {
  if (!Done.insert({O, Deref ? ContentDeref : Content}).second)
    return;
  auto Wrote = [&](Value *V) {
    if (!Deref)
      copied(V);
    else if (V->getType()->isPointerTy())
      contentOf(V);
  };
  auto CopiedFrom = [&](Value *Src) {
    if (!Deref)
      return contentOf(Src);
    SmallVector<Value *, 4> Bs;
    bases(Src, Bs);
    for (Value *B : Bs)
      if (isObject(B))
        content(B, /*Deref=*/true);
      else
        addr(B);
  };
  SmallVector<Value *, 8> Work{O};
  SmallPtrSet<Value *, 8> Seen{O};
  while (!Work.empty()) {
    Value *D = Work.pop_back_val();
    for (User *U : D->users()) {
      auto Push = [&](Value *W) {
        if (Seen.insert(W).second)
          Work.push_back(W);
      };
      if (isa<GEPOperator>(U) || isa<BitCastOperator>(U) ||
          isa<AddrSpaceCastOperator>(U) || isa<PHINode>(U) ||
          isa<SelectInst>(U)) {
        Push(U);
      } else if (auto *S = dyn_cast<StoreInst>(U)) {
        if (S->getPointerOperand() == D) {
          Wrote(S->getValueOperand());
        } else if (auto *Slot = dyn_cast<AllocaInst>(
                       getUnderlyingObject(S->getPointerOperand()))) {
          // O's address kept in a local (-O0): what is loaded from
          // there may be O's address again.
          for (User *SU : Slot->users())
            if (auto *L = dyn_cast<LoadInst>(SU);
                L && L->getType()->isPointerTy())
              Push(L);
        }
      } else if (auto *M = dyn_cast<MemTransferInst>(U)) {
        if (M->getRawDest() == D)
          CopiedFrom(M->getRawSource());
      } else if (auto *CB = dyn_cast<CallBase>(U)) {
        if (Ignored.count(CB) || CB->isLifetimeStartOrEnd() ||
            isa<DbgInfoIntrinsic>(CB) || isa<MemSetInst>(CB) ||
            !cleanupAnnotation(*CB).empty())
          continue;
        CalleeKind K = Kinds.of(*CB);
        if (K == CalleeKind::Identity) {
          Push(CB);
        } else if (K == CalleeKind::Destructor) {
          continue;
        } else if ((K == CalleeKind::Constructor || K == CalleeKind::CopyOrMove) &&
                   CB->getArgOperand(0) != D) {
          continue; // a constructor writes its own object only
        } else if (K == CalleeKind::CopyOrMove && CB->arg_size() == 2) {
          CopiedFrom(CB->getArgOperand(1));
        } else {
          // The callee may store anything else it is given into O.
          for (Value *Arg : CB->args())
            if (Arg != D && Arg->getType()->isPointerTy())
              addr(Arg);
        }
      }
    }
  }
}

/// The allocas whose address some store puts in memory the function did
/// not allocate (a global, what a pointer argument or a loaded pointer
/// points to): any task may find them there.
SmallPtrSet<AllocaInst *, 4> escapedAllocas(Function &F) {
  SmallPtrSet<AllocaInst *, 4> Escaped;
  for (Instruction &I : instructions(F)) {
    auto *S = dyn_cast<StoreInst>(&I);
    if (!S || !S->getValueOperand()->getType()->isPointerTy())
      continue;
    auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(S->getValueOperand()));
    if (!A)
      continue;
    const Value *Dest = getUnderlyingObject(S->getPointerOperand());
    if (!isa<AllocaInst>(Dest))
      Escaped.insert(A);
  }
  return Escaped;
}

CalleeKind CalleeKinds::of(const CallBase &CB) const {
  if (isIdentityIntrinsic(CB))
    return CalleeKind::Identity;
  const Function *Fn = CB.getCalledFunction();
  if (!Fn)
    return CalleeKind::Plain;
  if (CB.arg_size() == 1 && !CleanupOf.empty()) {
    auto It = CleanupOf.find(CB.getArgOperand(0)->stripPointerCasts());
    if (It != CleanupOf.end() && It->second == Fn->getName())
      return CalleeKind::Destructor;
  }
  return Kinds.lookup(Fn);
}

CalleeKinds::CalleeKinds(Function &F) {
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    if (StringRef Cleanup = cleanupAnnotation(I); !Cleanup.empty())
      CleanupOf[CB->getArgOperand(0)->stripPointerCasts()] = Cleanup;
    else if (const Function *Fn = CB->getCalledFunction())
      if (!Kinds.count(Fn))
        Kinds[Fn] = classify(*Fn);
  }
}

StringRef cleanupAnnotation(const Instruction &I) {
  auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II || II->getIntrinsicID() != Intrinsic::var_annotation)
    return "";
  auto *Str = dyn_cast<GlobalVariable>(II->getArgOperand(1)->stripPointerCasts());
  auto *Data = Str && Str->hasInitializer()
                   ? dyn_cast<ConstantDataSequential>(Str->getInitializer())
                   : nullptr;
  if (!Data || !Data->isCString())
    return "";
  StringRef Note = Data->getAsCString();
  return Note.consume_front(CleanupAnnotationPrefix) ? Note : "";
}

bool dropCleanupAnnotations(Module &M) {
  SmallVector<Instruction *, 8> Notes;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (!cleanupAnnotation(I).empty())
        Notes.push_back(&I);
  SmallPtrSet<GlobalVariable *, 8> Strings;
  SmallPtrSet<Function *, 2> Intrinsics;
  for (Instruction *I : Notes) {
    for (Value *Op : cast<CallBase>(I)->args())
      if (auto *G = dyn_cast<GlobalVariable>(Op->stripPointerCasts()))
        Strings.insert(G);
    Intrinsics.insert(cast<CallBase>(I)->getCalledFunction());
    I->eraseFromParent();
  }
  for (GlobalVariable *G : Strings)
    if (G->use_empty() && G->hasPrivateLinkage())
      G->eraseFromParent();
  for (Function *Fn : Intrinsics)
    if (Fn->use_empty())
      Fn->eraseFromParent();
  return !Notes.empty();
}

} // namespace wsff
