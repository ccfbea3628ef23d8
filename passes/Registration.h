//===- Registration.h - Where the wsff passes enter a pipeline -*- C++ -*-===//
#ifndef WSFF_REGISTRATION_H
#define WSFF_REGISTRATION_H

#include "WsOptions.h"

namespace llvm {
class PassBuilder;
}

namespace wsff {

/// Names for `opt -passes=` (ws-lower, ws-anticoalesce, ws-delta,
/// print<ws-storecount>, and ws-fencefree for all three, with optional
/// parameters as in ws-lower<variant=ffcl;fence=mfence>); the
/// ws-storecount analysis; ws-lower at the pipeline start and
/// ws-anticoalesce + ws-delta at the optimizer's end of every -O level.
void registerPasses(llvm::PassBuilder &PB, const WsOptions &Opts);

} // namespace wsff

#endif
