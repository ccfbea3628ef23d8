//===- AbiNames.h - The runtime's contract, as the passes read it -*- C++ -*-===//
//
// What compiled code calls and how the passes treat it, read from the
// runtime's own tables (runtime/include/ws/variants.def and abi.def) and
// header (ws/abi.h), so the runtime owns the contract, with the markers the
// user API leaves in the IR; plus the metadata the passes hand each other.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_ABINAMES_H
#define WSFF_ABINAMES_H

#include "ws/abi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace wsff {

/// <handle>Name for every row of ws/abi.def: the runtime functions compiled
/// code calls, the user API's markers, the per-thread variables compiled
/// code addresses, and the symbols of a module's delta record.
#define WS_ABI_CALL(name, handle, effect)                                      \
  inline constexpr llvm::StringLiteral handle##Name = #name;
#define WS_ABI_MARKER(name, handle)                                            \
  inline constexpr llvm::StringLiteral handle##Name = #name;
#define WS_ABI_TLS(name, handle)                                               \
  inline constexpr llvm::StringLiteral handle##Name = #name;
#define WS_ABI_RECORD(name, handle)                                            \
  inline constexpr llvm::StringLiteral handle##Name = #name;
#include "ws/abi.def"
/// <handle>Name for every row of ws/race_abi.def: -fws-race's checks.
#define WS_RACE_CALL(name, handle)                                             \
  inline constexpr llvm::StringLiteral handle##Name = #name;
#include "ws/race_abi.def"
/// The per-thread variables, every row.
inline constexpr llvm::StringLiteral ThreadLocalNames[] = {
#define WS_ABI_TLS(name, handle) handle##Name,
#include "ws/abi.def"
};

/// The personality of the landing pads the lowering adds (the Itanium C++
/// ABI's: its catch-all clause catches any exception).
inline constexpr llvm::StringLiteral CxxPersonalityName = "__gxx_personality_v0";
/// The personality of an entry point's cleanup where the function has none
/// (C compiled with -fexceptions: no C++ runtime is linked).
inline constexpr llvm::StringLiteral CPersonalityName = "__gcc_personality_v0";

/// The annotation (llvm.var.annotation) that the clang plugin puts on a
/// local declared with __attribute__((cleanup(fn))), followed by fn's
/// symbol: ws-lower takes the call of fn on the local for its destructor.
inline constexpr llvm::StringLiteral CleanupAnnotationPrefix = "ws.cleanup=";

/// The asm string that marks the worker's T := t store of every take().
inline constexpr llvm::StringLiteral TakeMarkerAsm = "# ws.take";

/// One deque variant of ws/variants.def.
struct VariantInfo {
  llvm::StringLiteral Name;
  unsigned Id;
  bool FenceFree;
  unsigned TakeStores;
  bool PublishesTail;
};

/// The default deque (ws/variants.def WS_DEFAULT_VARIANT): the variant of
/// a module compiled without one, and the only one -fws-race checks.
#define WS_DEFAULT_VARIANT(name, fenced)                                       \
  inline constexpr llvm::StringLiteral DefaultVariant = #name;
#include "ws/variants.def"
#undef WS_DEFAULT_VARIANT

/// Every row, in id order.
llvm::ArrayRef<VariantInfo> allVariants();
/// The row of `Name`, or none ("runtime", the generic entry points, has
/// none).
std::optional<VariantInfo> findVariant(llvm::StringRef Name);
/// The row whose id (enum ws_variant_id, the record's) is `Id`, or none.
std::optional<VariantInfo> findVariant(unsigned Id);
/// The rows' names joined by `Sep`, in id order (for messages).
std::string variantList(llvm::StringRef Sep = ", ");

/// __ws_push_<variant>, or __ws_push for the generic ("runtime") entry.
inline std::string pushName(llvm::StringRef Variant) {
  return Variant == "runtime" ? "__ws_push" : ("__ws_push_" + Variant.str());
}
inline std::string takeName(llvm::StringRef Variant) {
  return Variant == "runtime" ? "__ws_take" : ("__ws_take_" + Variant.str());
}

/// What a runtime function does between two takes (ws/abi.def).
enum class AbiEffect { None, Barrier, Take };
/// The effect of runtime function `Name` called from compiled code, or
/// none if it is not the runtime's.  A variant's take counts as a take
/// followed by its TakeStores counted stores.
std::optional<AbiEffect> abiCallEffect(llvm::StringRef Name,
                                       unsigned *TakeStores = nullptr);

/// How the stores of a fast-path helper count (ws/abi.def WS_ABI_STORE).
enum class AbiStoreKind { Tail, Counted };
std::optional<AbiStoreKind> abiStoreKind(llvm::StringRef Helper);

/// The functions ws-lower makes, named after what they come from: a
/// spawn's body and thunk (<prefix><function>.<n>), a spawning function's
/// clone, and ws-leafsplit's entry.
inline constexpr llvm::StringLiteral BodyPrefix = "__ws_body.";
inline constexpr llvm::StringLiteral ThunkPrefix = "__ws_thunk.";
inline constexpr llvm::StringLiteral CloneSuffix = ".ws";
inline constexpr llvm::StringLiteral LeafEntrySuffix = ".entry";
/// The placeholders of a spawn's leaf test and value (LeafSpawn.h), and
/// what ws-leafsplit makes of a clone's leaf to replace them.
inline constexpr llvm::StringLiteral LeafTestName = "__ws_leaf_test";
inline constexpr llvm::StringLiteral LeafValuePrefix = "__ws_leaf_value.";
inline constexpr llvm::StringLiteral LeafTestSuffix = ".leaftest";
inline constexpr llvm::StringLiteral LeafValueSuffix = ".leafvalue";

/// -fws-race: metadata kind, while ws-lower runs, on the instructions the
/// program had (the lowering's own accesses get !nosanitize).
inline constexpr llvm::StringLiteral ProgramAccessMD = "ws.race.program";
/// -fws-race: metadata kinds on a task's store of its call's value through
/// the address its parent gave (in the body), and on the parent's store of
/// that address into the slot or frame block (its operand: the thunk, which
/// calls the body: the optimizer may replace a body, all of whose calls it
/// sees, but not a thunk, whose address the slot holds).
/// ws-race-instrument leaves both unchecked where no other access can
/// touch the result's bytes while the task may be outstanding.
inline constexpr llvm::StringLiteral ResultWriteMD = "ws.result.write";
inline constexpr llvm::StringLiteral ResultAddrMD = "ws.result.addr";
/// Metadata kind on the take calls the lowering emits (take sites).
inline constexpr llvm::StringLiteral TakeSiteMD = "ws.take";
/// Metadata kind on a spawned call, once found (passes/SpawnCall.h).
inline constexpr llvm::StringLiteral SpawnedCallMD = "ws.spawned";
/// Metadata kinds, while ws-lower runs, that pair a call made of an invoke
/// in a spawn (passes/SpawnCall.cpp) with the landing pad it unwound to: a
/// sync added in the invoke's scope unwinds there too (LocalLifetimes.cpp).
inline constexpr llvm::StringLiteral WasInvokeMD = "ws.unwound.to";
inline constexpr llvm::StringLiteral PadMD = "ws.pad";
/// Metadata kind on the direct call of a task's body at its sync, when no
/// thief took the task (ws-tre looks for these).
inline constexpr llvm::StringLiteral SyncCallMD = "ws.sync.call";
/// The operand ws-lower puts in the loop metadata of a sync's loop over
/// its slots (a dynamic sync): ws-sync-unroll looks for it.
inline constexpr llvm::StringLiteral SyncLoopMD = "ws.sync.loop";
/// Function attribute of the clones ws-lower makes (ws-leafsplit works on
/// them only).
inline constexpr llvm::StringLiteral CloneAttr = "ws-clone";
/// An OpenMP task's body that ws-lower clones to give it its tail
/// (OmpTasks.cpp, context-free tasks).
inline constexpr llvm::StringLiteral OmpTaskBodyAttr = "ws-omp-task-body";

/// Stores the store-count analysis may count: emitted by the passes, or by
/// the runtime's fast paths (tagged when the bitcode is linked).  Each is
/// volatile or atomic (codegen keeps it, alone) and goes to an address no
/// store can hit again before the next take's T store.
inline constexpr llvm::StringLiteral CountedStoreMD = "ws.store";
/// The fast paths' stores to the deque tail T: never counted (a push's T
/// store may coalesce with the T store of the take that follows it).
inline constexpr llvm::StringLiteral TailStoreMD = "ws.tstore";

} // namespace wsff

#endif
