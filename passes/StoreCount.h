//===- StoreCount.h - ws-storecount: stores between take() calls -*- C++ -*-===//
//
// x, the minimum number of stores a worker is guaranteed to make between
// two consecutive take() T stores (paper 000 §4, "Determining delta"): a
// weighted shortest path over the CFG, where a block's weight is the number
// of guaranteed stores in it and take sites split blocks.  Interprocedural
// within the module (call-graph SCCs, fixpoint); unknown external calls and
// the module boundary count as 0 stores and a possible take.
//
// Counted stores are only those codegen can neither drop nor merge and that
// cannot coalesce with the next store in the store buffer (§7.3): stores the
// passes emit (tagged !ws.store), the runtime fast paths' stores other than
// T (tagged when the bitcode is linked), and user volatile or atomic stores
// that are followed, in the same block, by a store to a provably different
// address.  See docs/storecount.md for the argument.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_STORECOUNT_H
#define WSFF_STORECOUNT_H

#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/PassManager.h"

#include <climits>
#include <string>
#include <vector>

namespace wsff {

/// No take follows (on any path): x is unbounded.
constexpr unsigned UnboundedStores = UINT_MAX;

struct TakeSiteInfo {
  llvm::Instruction *Take = nullptr; ///< the `# ws.take` marker, or the call
  unsigned MinStores = UnboundedStores;
  /// Where the minimal path ends: the next take, an unknown call, or a
  /// return out of the module.
  std::string NextWhat;
  llvm::DebugLoc NextLoc;
  std::string NextFunction;
};

struct StoreCountResult {
  std::vector<TakeSiteInfo> Sites;
  unsigned ModuleX = UnboundedStores; ///< min over sites
  void print(llvm::raw_ostream &OS) const;
};

class StoreCountAnalysis : public llvm::AnalysisInfoMixin<StoreCountAnalysis> {
  friend llvm::AnalysisInfoMixin<StoreCountAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = StoreCountResult;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

/// print<ws-storecount>
class StoreCountPrinterPass : public llvm::PassInfoMixin<StoreCountPrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit StoreCountPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

/// "file:line" of a location, or "?".
std::string describeLocation(const llvm::DebugLoc &DL);

} // namespace wsff

#endif
