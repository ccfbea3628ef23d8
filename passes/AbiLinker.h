//===- AbiLinker.h - Inline the runtime's fast paths -----------*- C++ -*-===//
//
// The runtime's push/take fast paths are compiled to bitcode (ws-abi.bc)
// from the same C source as libws.  Linking the ones a module calls into it,
// internal and always-inline, lets them inline into user code at every -O
// level (OpenCilk links its runtime ABI bitcode the same way).
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_ABILINKER_H
#define WSFF_ABILINKER_H

#include "WsOptions.h"

namespace llvm {
class GlobalVariable;
class Module;
}

namespace wsff {

/// Links the fast paths M references; warns (and leaves the calls out of
/// line, still correct) when the bitcode cannot be used.
void linkAbiFastPaths(llvm::Module &M, const WsOptions &Opts);

/// Gives a declaration of the runtime's per-thread state the TLS model it
/// has in M's output: local-exec (and dso_local) in an executable, where
/// every access is one %fs-relative instruction; initial-exec in a shared
/// object.
void setRuntimeTlsModel(llvm::Module &M, llvm::GlobalVariable &GV);

} // namespace wsff

#endif
