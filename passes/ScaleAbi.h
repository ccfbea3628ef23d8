//===- ScaleAbi.h - What the ws-scale passes put in a program --*- C++ -*-===//
//
// The hooks and data of libws_scale, from ws/scale_hooks.def (the runtime
// owns the list): their names and IR types.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SCALEABI_H
#define WSFF_SCALEABI_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/Support/ErrorHandling.h"

namespace wsff {

/// The hooks, in the order of ws/scale_hooks.def.
enum class ScaleHook {
#define WS_SCALE_HOOK(name, ...) name,
#include "ws/scale_hooks.def"
  Count
};

struct ScaleHookSpec {
  const char *Name;
  const char *Returns; ///< a C type
  const char *Params;  ///< C types, comma-separated
};

inline constexpr ScaleHookSpec ScaleHookSpecs[] = {
#define WS_SCALE_HOOK(name, ret, ...) {"__ws_scale_" #name, #ret, #__VA_ARGS__},
#include "ws/scale_hooks.def"
};

/// Names of the data (thread-local counter, counted-module mark).
#define WS_SCALE_DATA(name, type, storage)                                     \
  inline constexpr llvm::StringLiteral ScaleData_##name = "__ws_scale_" #name;
#include "ws/scale_hooks.def"

/// The IR type of a C type of scale_hooks.def.
inline llvm::Type *scaleIRType(llvm::StringRef CType, llvm::LLVMContext &Ctx) {
  CType = CType.trim();
  if (CType == "void")
    return llvm::Type::getVoidTy(Ctx);
  if (CType == "uint64_t")
    return llvm::Type::getInt64Ty(Ctx);
  if (CType == "int")
    return llvm::Type::getInt32Ty(Ctx);
  if (CType.ends_with("*"))
    return llvm::PointerType::getUnqual(Ctx);
  llvm_unreachable("ws/scale_hooks.def: a C type the passes do not map");
}

/// Is Name one of the hooks?
inline bool isScaleHook(llvm::StringRef Name) {
  for (const ScaleHookSpec &S : ScaleHookSpecs)
    if (Name == S.Name)
      return true;
  return false;
}

} // namespace wsff

#endif
