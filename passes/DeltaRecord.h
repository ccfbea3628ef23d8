//===- DeltaRecord.h - ws-delta: one record per module ---------*- C++ -*-===//
//
// Each module with a take() emits one ws_module_record {x, S used at compile
// time, delta, variant, module id} into section "ws_delta" (ws/abi.h).  The
// runtime walks all records at start-up and uses
// delta = max_i ceil(S_runtime / (x_i + 1)), so a program linked from many
// objects, compiled with different options, stays safe (paper 000 §4,
// "Determining delta").
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_DELTARECORD_H
#define WSFF_DELTARECORD_H

#include "WsOptions.h"

#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <optional>

namespace wsff {

class DeltaRecordPass : public llvm::PassInfoMixin<DeltaRecordPass> {
public:
  explicit DeltaRecordPass(WsOptions Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  WsOptions Opts;
};

/// Does M contain a take() (a marked T store, or a call of a take entry)?
bool moduleHasTakes(const llvm::Module &M);

/// What a module's record says: the one carrier of the facts ws-lower
/// settles (variant, S at compile time, flags) for the passes after it, and
/// of x, which ws-delta fills in, for the runtime.
struct ModuleFacts {
  unsigned Variant; ///< enum ws_variant_id
  uint32_t X, S, Flags;
};

/// M's record, or none (or an error, when its name is taken otherwise).
std::optional<ModuleFacts> readRecord(llvm::Module &M);

/// Creates M's record if it has none: the variant, S and flags of Opts and
/// the x every take() of the runtime guarantees on its own.  ws-lower calls
/// this, so a lowered module always tells the runtime which deque layout it
/// inlined.
void ensureRecord(llvm::Module &M, const WsOptions &Opts);

} // namespace wsff

#endif
