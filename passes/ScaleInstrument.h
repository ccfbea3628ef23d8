//===- ScaleInstrument.h - ws-scale: measure work and span -----*- C++ -*-===//
//
// ws-clang -fws-scale: calls into libws_scale (ws/scale_hooks.def) so that
// the program measures the work and the span of its series-parallel DAG as
// it runs.  The pass runs before ws-lower and sees only what the user's
// source put in the IR: the spawn markers, the syncs, function entry and
// every exit.  In a function that spawns:
//
//   entry:     %frame = __ws_scale_enter()
//   spawn:     %parent = __ws_scale_spawn(%at)       before __ws_spawn_begin
//              the spawned call fn(args) becomes fn.ws.scale(args, %parent,
//              at[0], at[1]), a wrapper that brackets the call with
//              task_begin / task_end, and the begin marker names the wrapper
//              (a spawn through a pointer passes the pointer to the wrapper)
//   sync:      __ws_scale_sync_begin(); __ws_sync(); __ws_scale_sync_end()
//   exit:      __ws_scale_sync_begin(); __ws_sync(); __ws_scale_leave(%frame)
//              before every ret and resume: the explicit sync puts the
//              implicit one's children inside the frame.
//
// Functions that do not spawn are left alone: their time is part of the
// strand that calls them.  Without -fws-scale the pass is not in the
// pipeline at all.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SCALEINSTRUMENT_H
#define WSFF_SCALEINSTRUMENT_H

#include "WsOptions.h"

#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
}

namespace wsff {

class ScaleInstrumentPass : public llvm::PassInfoMixin<ScaleInstrumentPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// `opt -passes=ws-scale` and `-passes=ws-scale-count`; with Opts.Scale,
/// ws-scale at the pipeline start and, for "instructions", ws-scale-count
/// at the optimizer's end.  Called before the other passes register
/// theirs, so that ws-scale runs before ws-lower.
void registerScalePasses(llvm::PassBuilder &PB, const WsOptions &Opts);

} // namespace wsff

#endif
