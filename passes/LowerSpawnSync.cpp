//===- LowerSpawnSync.cpp - ws-lower: spawns and syncs onto the runtime --===//
//
// The pass: checks the markers, declares the runtime (LowerRuntime), makes
// a clone of every spawning function (SpawnClones), lowers each function
// (FunctionLowering, SyncLowering), and links the fast paths.
//
//===----------------------------------------------------------------------===//

#include "LowerSpawnSync.h"

#include "AbiLinker.h"
#include "AbiNames.h"
#include "DeltaRecord.h"
#include "FunctionLowering.h"
#include "LeafSpawn.h"
#include "LowerRuntime.h"
#include "OmpTasks.h"
#include "SpawnClones.h"
#include "SpawnHolder.h"
#include "TaskReach.h"
#include "ViewReach.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "ws-lower"

using namespace llvm;

namespace wsff {

PreservedAnalyses LowerSpawnSyncPass::run(Module &M, ModuleAnalysisManager &MAM) {
  std::string Conflict = Opts.conflict();
  if (!Conflict.empty())
    report_fatal_error(Twine("wsff: ") + Conflict, /*gen_crash_diag=*/false);
  // OpenMP tasks a function waits for become its own spawns (OmpTasks.h).
  if (Opts.OmpTasks)
    lowerOmpTasks(M);
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  bool OK = checkBuiltin(M, SpawnBeginName, FunctionType::get(Ptr, {Ptr}, true),
                         FunctionType::get(Void, {Ptr}, true));
  OK &= checkBuiltin(M, SpawnEndName, FunctionType::get(Void, false));
  OK &= checkBuiltin(M, SyncName, FunctionType::get(Void, false));
  if (!OK)
    return PreservedAnalyses::all();

  // Functions that spawn (or hold an end marker: a stray one is an
  // error), and those that only sync (which have nothing to take back:
  // their syncs go away).
  SetVector<Function *> Spawning, Syncing;
  for (StringRef Marker : {SpawnBeginName, SpawnEndName})
    if (Function *Fn = M.getFunction(Marker))
      for (User *U : Fn->users())
        Spawning.insert(cast<CallBase>(U)->getFunction());
  if (Function *Fn = M.getFunction(SyncName))
    for (User *U : Fn->users())
      if (!Spawning.count(cast<CallBase>(U)->getFunction()))
        Syncing.insert(cast<CallBase>(U)->getFunction());
  // OpenMP task bodies that run spawning code (OmpTasks.cpp): a clone
  // each, so that a task is given its tail and gives it to the calls of
  // spawning functions in its code, as a spawned spawning function does.
  for (Function &Fn : M)
    if (Fn.hasFnAttribute(OmpTaskBodyAttr) && !Fn.isDeclaration())
      Spawning.insert(&Fn);
  if (Spawning.empty() && Syncing.empty())
    return dropCleanupAnnotations(M) ? PreservedAnalyses::none()
                                     : PreservedAnalyses::all();

  Runtime RT;
  if (!declareRuntime(M, Opts, RT))
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  RT.TLI = [&FAM](Function &F) -> const TargetLibraryInfo & {
    return FAM.getResult<TargetLibraryAnalysis>(F);
  };
  // C++ spawns as plain IR (the holder's helpers inlined): the spawned
  // function is then a constant, as in C.
  for (Function *F : Spawning)
    inlineSpawnHelpers(*F);
  // Which spawning functions mark their children for the reducers: those
  // that may reach one, decided on the module as written.
  ViewReach Reach(M, RT.TLI);
  // A function with a malformed spawn has its error and is left as it is
  // (valid IR: clang may go on after an error).
  CloneMap Clones;
  Spawning.remove_if([&](Function *F) {
    return !FunctionLowering(*F, RT, Clones, nullptr).check();
  });
  // A clone for every spawning function first, so that each lowering can
  // send the calls it makes to them.  Variadic functions keep their body
  // and find their tail at entry; so do those the link may replace (weak,
  // linkonce, or semantically interposable): a call bound to this
  // module's clone would run the definition the linker did not choose.
  for (Function *F : Spawning)
    if (!F->isVarArg() && !F->isInterposable())
      Clones[F] = makeClone(*F, RT);
  SmallPtrSet<Function *, 16> MarkViews;
  for (Function *F : Spawning)
    if (Reach.mayReach(*F))
      MarkViews.insert(F);
  for (Function *F : Spawning) {
    Function *Clone = Clones.lookup(F);
    Function &Lowered = Clone ? *Clone : *F;
    // A leaf test in front of the spawns of a function that syncs
    // dynamically anyway (LeafSpawn.h).
    if (Opts.leafSpawns() &&
        FunctionLowering(Lowered, RT, Clones, nullptr).syncsDynamically())
      addLeafSpawnTests(Lowered, Clones, RT);
    FunctionLowering(Lowered, RT, Clones,
                     Clone ? Clone->getArg(0) : nullptr, MarkViews.count(F))
        .run();
  }
  for (Function *F : Syncing)
    FunctionLowering(*F, RT, Clones, nullptr).run();

  for (StringRef Name : {StringRef(SpawnBeginName), StringRef(SpawnEndName),
                         StringRef(SyncName), StringRef(TailName),
                         StringRef(TailOwnedName), StringRef(SubmitName),
                         StringRef(ViewsAboveName), StringRef(ChildBeginName),
                         StringRef(ChildEndName), StringRef(RaceEnterName),
                         StringRef(RaceLeaveName), StringRef(RaceSpawnName)})
    if (Function *Fn = M.getFunction(Name))
      if (Fn->use_empty())
        Fn->eraseFromParent();

  // The pairs of calls made of invokes and their pads (SpawnCall.h) were
  // for this pass only.
  unsigned WasInvoke = M.getContext().getMDKindID(WasInvokeMD);
  unsigned Pad = M.getContext().getMDKindID(PadMD);
  for (Function &Fn : M)
    for (Instruction &I : instructions(Fn)) {
      I.setMetadata(WasInvoke, nullptr);
      I.setMetadata(Pad, nullptr);
    }
  dropCleanupAnnotations(M);
  ensureRecord(M, Opts);
  // -fws-race calls the fast paths: inlined, ThreadSanitizer's pass would
  // check the deque's memory as the program's.
  if (Opts.InlineAbi && !Opts.Race)
    linkAbiFastPaths(M, Opts);
  return PreservedAnalyses::none();
}

} // namespace wsff
