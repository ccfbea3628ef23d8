//===- Pipelines.h - The wsff pipelines a fuzzed module goes through -*- C++ -*-===//
//
// Each input runs one pipeline, named in the module (!wsfuzz.pipeline, set
// by the mutator) so that a crash file reproduces by itself.  The
// pipelines are what users and tests run: ws-fencefree, ws-lower for each
// variant, the store count printed, anti-coalescing with a target delta,
// default<O2> with the plugin's extension points (and without it before
// the lowering), with and without the runtime's fast paths linked in.  A
// run is in process: the pass code is compiled into the fuzzer, with
// coverage, ASan and UBSan, and registered exactly as the plugin registers
// it.
//
//===----------------------------------------------------------------------===//
#ifndef WSFUZZ_PIPELINES_H
#define WSFUZZ_PIPELINES_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace wsfuzz {

struct Pipeline {
  /// How !wsfuzz.pipeline names it.
  std::string Key;
  /// default<O2> without the plugin before Passes (a module optimized
  /// before the lowering ran).
  bool OptimizeFirst = false;
  /// -passes= with the plugin loaded.
  std::string Passes;
  /// -ws-variant=: the plugin's extension points inside default<O2>.
  std::string Variant;
};

const std::vector<Pipeline> &allPipelines();

/// The pipeline M names, or one picked by Hash when it names none.
const Pipeline &pipelineOf(const llvm::Module &M, uint64_t Hash);
/// Makes M name P.
void setPipeline(llvm::Module &M, const Pipeline &P);

/// What running a pipeline did.
struct Outcome {
  unsigned Errors = 0;       ///< error diagnostics (a user error: fine)
  std::string Diagnostics;   ///< their text, for the report
  std::string Verifier;      ///< non-empty: the output is invalid IR
};

/// Runs P over M in this process.  AbiDir: where the runtime's fast paths
/// are (ws-abi.bc, ws-abi-mfence.bc: the plugin finds them next to itself).
Outcome runPipeline(llvm::Module &M, const Pipeline &P, llvm::StringRef AbiDir);

/// The opt command lines that reproduce a run of P on File.
std::string reproduceCommand(const Pipeline &P, llvm::StringRef File);

} // namespace wsfuzz

#endif
