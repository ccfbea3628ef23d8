//===- ViewReach.cpp - Which functions may reach a reducer's views --------===//

#include "ViewReach.h"

#include "AbiNames.h"
#include "OmpTasks.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace wsff {

/// The function a call reaches: its callee, or for a spawned call (made
/// through the value __ws_spawn_begin returns, <ws/ws.h>) the function the
/// marker was given.  Null when the module cannot tell.
static const Function *calledFunction(const CallBase &CB) {
  if (const Function *Callee = CB.getCalledFunction())
    return Callee;
  auto *Begin = dyn_cast<CallBase>(CB.getCalledOperand()->stripPointerCasts());
  const Function *Marker = Begin ? Begin->getCalledFunction() : nullptr;
  if (!Marker || Marker->getName() != SpawnBeginName || Begin->arg_size() < 2)
    return nullptr;
  return dyn_cast<Function>(Begin->getArgOperand(1)->stripPointerCasts());
}

/// A call the module cannot see into, which may reach a reducer: not to
/// the runtime, an intrinsic, the builtins' markers, a library function
/// that calls nothing back, or anything that only reads memory.
static bool opaqueCall(const CallBase &CB, const TargetLibraryInfo &TLI) {
  if (CB.isInlineAsm() || CB.onlyReadsMemory() ||
      CB.hasFnAttr(Attribute::NoCallback))
    return false;
  const Function *Callee = calledFunction(CB);
  if (!Callee)
    return true;
  StringRef Name = Callee->getName();
  if (Callee->isIntrinsic() || abiCallEffect(Name) || Name == SpawnBeginName ||
      Name == SpawnEndName || Name == SyncName || isOmpFastPathEntry(Name))
    return false;
  if (!Callee->isDeclaration())
    return Callee->isInterposable();
  LibFunc LF;
  return !(TLI.getLibFunc(*Callee, LF) && TLI.has(LF) && LF != LibFunc_qsort &&
           LF != LibFunc_atexit);
}

ViewReach::ViewReach(Module &M,
                     function_ref<const TargetLibraryInfo &(Function &)> TLI) {
  DenseMap<const Function *, SmallVector<const Function *, 4>> Callers;
  SmallVector<const Function *, 16> Work;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    const TargetLibraryInfo &Lib = TLI(F);
    bool Opaque = false;
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (opaqueCall(*CB, Lib))
        Opaque = true;
      else if (const Function *Callee = calledFunction(*CB))
        if (!Callee->isDeclaration())
          Callers[Callee].push_back(&F);
    }
    if (Opaque && Reaching.insert(&F).second)
      Work.push_back(&F);
  }
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Function *Caller : Callers.lookup(F))
      if (Reaching.insert(Caller).second)
        Work.push_back(Caller);
  }
}

} // namespace wsff
