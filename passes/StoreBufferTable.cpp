//===- StoreBufferTable.cpp - S at compile time ---------------------------===//

#include "StoreBufferTable.h"

#include "ws/cpus.def" // WS_DEFAULT_STORE_BUFFER

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wsff {

namespace {
struct CpuRow {
  const char *March; ///< LLVM CPU names, space separated
  unsigned S;
};
} // namespace

static const CpuRow Rows[] = {
#define WS_CPU(Vendor, Family, Lo, Hi, S, Name, March, Evidence) {March, S},
#include "ws/cpus.def"
};

/// S of the row that names CPU among its -march names; 0: unknown.
static unsigned storeBufferFor(StringRef CPU) {
  for (const CpuRow &R : Rows) {
    SmallVector<StringRef, 4> Names;
    StringRef(R.March).split(Names, ' ', -1, /*KeepEmpty=*/false);
    if (is_contained(Names, CPU))
      return R.S;
  }
  return 0;
}

unsigned compileTimeStoreBuffer(const Module &M, unsigned Option,
                                bool *FromTable) {
  if (FromTable)
    *FromTable = false;
  if (Option)
    return Option;
  unsigned S = 0;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    StringRef CPU = F.getFnAttribute("target-cpu").getValueAsString();
    unsigned RowS = storeBufferFor(CPU);
    if (!RowS)
      return WS_DEFAULT_STORE_BUFFER; // one unknown CPU decides
    S = std::max(S, RowS);
  }
  if (!S)
    return WS_DEFAULT_STORE_BUFFER;
  if (FromTable)
    *FromTable = true;
  return S;
}

} // namespace wsff
