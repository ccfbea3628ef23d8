//===- Plugin.cpp - The wsff pass plugin entry point ----------------------===//
//
// opt -load-pass-plugin=WsffPlugin.so -passes=ws-lower ...
// clang -fpass-plugin=WsffPlugin.so ...     (options: the -ws-* defaults)
//
//===----------------------------------------------------------------------===//

#include "Registration.h"

#include "llvm/Passes/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "wsff", "0.1.0",
          [](llvm::PassBuilder &PB) {
            wsff::registerPasses(PB, wsff::WsOptions::fromCommandLine());
          }};
}
