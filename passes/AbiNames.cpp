//===- AbiNames.cpp - The runtime's tables, compiled into the passes ------===//

#include "AbiNames.h"

#include "llvm/ADT/ArrayRef.h"

using namespace llvm;

namespace wsff {

static const VariantInfo Variants[] = {
#define WS_VARIANT(name, id, fence_free, model, take_stores, publishes_tail,   \
                   validated_only, summary)                                    \
  {#name, id, fence_free != 0, take_stores, publishes_tail != 0},
#include "ws/variants.def"
#undef WS_VARIANT
};

ArrayRef<VariantInfo> allVariants() { return Variants; }

std::optional<VariantInfo> findVariant(StringRef Name) {
  for (const VariantInfo &V : Variants)
    if (V.Name == Name)
      return V;
  return std::nullopt;
}

std::optional<VariantInfo> findVariant(unsigned Id) {
  for (const VariantInfo &V : Variants)
    if (V.Id == Id)
      return V;
  return std::nullopt;
}

std::string variantList(StringRef Sep) {
  std::string Out;
  for (const VariantInfo &V : Variants) {
    if (!Out.empty())
      Out += Sep;
    Out += V.Name;
  }
  return Out;
}

namespace {
struct CallRow {
  StringLiteral Name;
  AbiEffect Effect;
};
constexpr AbiEffect none = AbiEffect::None, barrier = AbiEffect::Barrier;
const CallRow Calls[] = {
#define WS_ABI_CALL(name, handle, effect) {#name, effect},
#include "ws/abi.def"
};

struct StoreRow {
  StringLiteral Helper;
  AbiStoreKind Kind;
};
constexpr AbiStoreKind tail = AbiStoreKind::Tail, counted = AbiStoreKind::Counted;
const StoreRow Stores[] = {
#define WS_ABI_STORE(helper, kind) {#helper, kind},
#include "ws/abi.def"
};
} // namespace

std::optional<AbiEffect> abiCallEffect(StringRef Name, unsigned *TakeStores) {
  for (const CallRow &R : Calls)
    if (R.Name == Name)
      return R.Effect;
  // The generic entry points dispatch to the ops tables, whose fence-free
  // takes make the anti-coalescing store (THEP's its echo).
  if (Name == pushName("runtime"))
    return AbiEffect::None;
  if (Name == takeName("runtime")) {
    if (TakeStores)
      *TakeStores = 1;
    return AbiEffect::Take;
  }
  for (const VariantInfo &V : Variants) {
    if (Name == pushName(V.Name))
      return AbiEffect::None;
    if (Name == takeName(V.Name)) {
      if (TakeStores)
        *TakeStores = V.TakeStores;
      return AbiEffect::Take;
    }
  }
  return std::nullopt;
}

std::optional<AbiStoreKind> abiStoreKind(StringRef Helper) {
  for (const StoreRow &R : Stores)
    if (R.Helper == Helper)
      return R.Kind;
  return std::nullopt;
}

} // namespace wsff
