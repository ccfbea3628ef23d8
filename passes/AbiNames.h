//===- AbiNames.h - Names of the runtime entry points ----------*- C++ -*-===//
//
// What compiled code calls (runtime/include/ws/abi.h owns the contract) and
// the markers the user API leaves in the IR (runtime/include/ws/ws.h).
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_ABINAMES_H
#define WSFF_ABINAMES_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace wsff {

inline constexpr llvm::StringLiteral SpawnBeginName = "__ws_spawn_begin";
inline constexpr llvm::StringLiteral SpawnEndName = "__ws_spawn_end";
inline constexpr llvm::StringLiteral SyncName = "__ws_sync";

inline constexpr llvm::StringLiteral SelfName = "__ws_self";
inline constexpr llvm::StringLiteral JoinStolenName = "__ws_join_stolen";

/// The asm string that marks the worker's T := t store of every take().
inline constexpr llvm::StringLiteral TakeMarkerAsm = "# ws.take";

/// __ws_push_<variant>, or __ws_push for the generic ("runtime") entry.
inline std::string pushName(llvm::StringRef Variant) {
  return Variant == "runtime" ? "__ws_push" : ("__ws_push_" + Variant.str());
}
inline std::string takeName(llvm::StringRef Variant) {
  return Variant == "runtime" ? "__ws_take" : ("__ws_take_" + Variant.str());
}

/// Metadata kind on the take calls the lowering emits (take sites).
inline constexpr llvm::StringLiteral TakeSiteMD = "ws.take";

/// Stores the store-count analysis may count: emitted by the passes, or by
/// the runtime's fast paths (tagged when the bitcode is linked).  Each is
/// volatile or atomic (codegen keeps it, alone) and goes to an address no
/// store can hit again before the next take's T store.
inline constexpr llvm::StringLiteral CountedStoreMD = "ws.store";
/// The fast paths' stores to the deque tail T: never counted (a push's T
/// store may coalesce with the T store of the take that follows it).
inline constexpr llvm::StringLiteral TailStoreMD = "ws.tstore";

/// Per-thread scratch lines for inserted stores (ws/abi.h).
inline constexpr llvm::StringLiteral ScratchName = "ws_tls_scratch";

} // namespace wsff

#endif
