//===- AntiCoalesce.h - ws-anticoalesce: stores after take() ---*- C++ -*-===//
//
// Guarantees at least one store to a cache line other than T's between any
// two consecutive take() stores (paper 000 §7.3: two take stores with no
// store between may coalesce in the store buffer and hide more takes than
// it has entries).  A volatile store to a per-thread scratch line goes
// right after each take whose minimal path to the next take has no
// guaranteed store, and only there.
//
// With ws-target-delta=N (ws-clang -fws-fencefree-delta=N) it also pads
// every take whose x is below ceil(S/N) - 1, so that
// delta = ceil(S / (x + 1)) <= N for the compile-time S.  Consecutive
// padding stores go to different scratch lines.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_ANTICOALESCE_H
#define WSFF_ANTICOALESCE_H

#include "WsOptions.h"

#include "llvm/IR/PassManager.h"

namespace wsff {

class AntiCoalescePass : public llvm::PassInfoMixin<AntiCoalescePass> {
public:
  explicit AntiCoalescePass(WsOptions Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  WsOptions Opts;
};

} // namespace wsff

#endif
