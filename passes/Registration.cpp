//===- Registration.cpp - Where the wsff passes enter a pipeline ----------===//

#include "Registration.h"

#include "AntiCoalesce.h"
#include "DeltaRecord.h"
#include "LeafSpawn.h"
#include "LeafSplit.h"
#include "LowerSpawnSync.h"
#include "RaceInstrument.h"
#include "ScaleInstrument.h"
#include "StoreCount.h"
#include "SyncTailCall.h"
#include "SyncUnroll.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace wsff {

/// Matches Name against Pass or Pass<key=value;...>, applying the
/// parameters to Opts.  Bad parameters are a command-line error.
static bool matchPass(StringRef Name, StringRef Pass, WsOptions &Opts) {
  if (!Name.consume_front(Pass))
    return false;
  if (Name.empty())
    return true;
  if (!Name.consume_front("<") || !Name.consume_back(">"))
    return false;
  SmallVector<StringRef, 4> Params;
  Name.split(Params, ';', -1, /*KeepEmpty=*/false);
  for (StringRef P : Params)
    if (Error E = Opts.set(P))
      report_fatal_error(Twine(Pass) + ": " + toString(std::move(E)),
                         /*gen_crash_diag=*/false);
  return true;
}

/// ws-sync-unroll (SyncUnroll.h): ask, unroll what was asked, and take
/// back what was not done.
static void addSyncUnroll(FunctionPassManager &FPM) {
  FPM.addPass(SyncUnrollPass());
  FPM.addPass(createFunctionToLoopPassAdaptor(LoopFullUnrollPass(
      /*OptLevel=*/2, /*OnlyWhenForced=*/true, /*ForgetSCEV=*/false)));
  FPM.addPass(SyncUnrollPass(/*Strip=*/true));
}

void registerPasses(PassBuilder &PB, const WsOptions &Opts) {
  registerScalePasses(PB, Opts); // first: its pass runs before ws-lower
  PB.registerPipelineParsingCallback(
      [Opts](StringRef Name, ModulePassManager &MPM,
             ArrayRef<PassBuilder::PipelineElement>) {
        WsOptions O = Opts;
        if (matchPass(Name, "ws-lower", O)) {
          MPM.addPass(LowerSpawnSyncPass(O));
          return true;
        }
        if (matchPass(Name, "ws-delta", O)) {
          MPM.addPass(DeltaRecordPass(O));
          return true;
        }
        if (matchPass(Name, "ws-anticoalesce", O)) {
          MPM.addPass(AntiCoalescePass(O));
          return true;
        }
        if (Name == "ws-leafsplit") {
          MPM.addPass(LeafSplitPass());
          return true;
        }
        if (Name == "ws-leafspawn-drop") {
          MPM.addPass(LeafSpawnDropPass());
          return true;
        }
        if (Name == "ws-race-instrument") {
          MPM.addPass(RaceInstrumentPass());
          return true;
        }
        if (Name == "print<ws-storecount>") {
          MPM.addPass(StoreCountPrinterPass(outs()));
          return true;
        }
        if (matchPass(Name, "ws-fencefree", O)) {
          MPM.addPass(LowerSpawnSyncPass(O));
          MPM.addPass(AntiCoalescePass(O));
          MPM.addPass(DeltaRecordPass(O));
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "ws-sync-unroll" || Name == "ws-sync-unroll<strip>") {
          FPM.addPass(SyncUnrollPass(Name.ends_with("<strip>")));
          return true;
        }
        if (Name != "ws-tre")
          return false;
        FPM.addPass(SyncTailCallPass());
        return true;
      });
  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
    MAM.registerPass([] { return StoreCountAnalysis(); });
  });
  PB.registerPipelineStartEPCallback(
      [Opts](ModulePassManager &MPM, OptimizationLevel Level) {
        // Leaf tests at spawns where ws-leafsplit will run to fill them in.
        WsOptions O = Opts;
        if (O.LeafSpawns < 0)
          O.LeafSpawns = Level != OptimizationLevel::O0;
        MPM.addPass(LowerSpawnSyncPass(O));
      });
  // Where the optimizer shapes the recursion: a sync's self-recursive call
  // becomes a loop once the fast paths are inlined, and the leaf tests move
  // into the callers once no other inlining will happen.
  // (Not for -fws-race: its hooks around each child are what matter, and
  // it measures nothing.)
  if (!Opts.Race) {
    PB.registerScalarOptimizerLateEPCallback(
        [](FunctionPassManager &FPM, OptimizationLevel) {
          FPM.addPass(SyncTailCallPass());
          addSyncUnroll(FPM);
        });
    PB.registerOptimizerEarlyEPCallback(
        [](ModulePassManager &MPM, OptimizationLevel) {
          MPM.addPass(LeafSplitPass());
        });
  }
  PB.registerOptimizerLastEPCallback(
      [Opts](ModulePassManager &MPM, OptimizationLevel Level) {
        // A sync loop whose count became a constant late: a spawn loop
        // unrolled after ws-leafsplit took its leaf test out (LeafSpawn.h).
        if (!Opts.Race) {
          FunctionPassManager FPM;
          addSyncUnroll(FPM);
          MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
        }
        MPM.addPass(LeafSpawnDropPass()); // those no ws-leafsplit filled in
        MPM.addPass(AntiCoalescePass(Opts));
        MPM.addPass(DeltaRecordPass(Opts));
        if (Opts.Race && Level == OptimizationLevel::O0) // after coro-split
          MPM.addPass(RaceInstrumentPass());
      });
  // -fws-race: the accesses the simplification left, checked before the
  // loop vectorizer and the late unrolling: an innermost loop is still one
  // loop then, and its accesses at a constant stride are checked once
  // before it (RaceInstrument.cpp), and it is vectorized after; at the
  // optimizer's end the vectorized and unrolled copies had a check each
  // (lud's kernel: a call per 16 bytes, 12x the serial elision; 4x now).
  // Loops in simplified form first: the checks go in a preheader.
  if (Opts.Race)
    PB.registerOptimizerEarlyEPCallback(
        [](ModulePassManager &MPM, OptimizationLevel Level) {
          if (Level == OptimizationLevel::O0)
            return;
          MPM.addPass(createModuleToFunctionPassAdaptor(LoopSimplifyPass()));
          MPM.addPass(RaceInstrumentPass());
        });
}

} // namespace wsff
