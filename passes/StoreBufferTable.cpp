//===- StoreBufferTable.cpp - S at compile time ---------------------------===//

#include "StoreBufferTable.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wsff {

/// S = store-buffer entries + 1 (paper 000 §7.3: the extra entry B).
/// Entries from the vendors' optimization manuals (Intel 64 and IA-32
/// Architectures Optimization Reference Manual; AMD Software Optimization
/// Guides for families 17h/19h/1Ah), as summarised by Agner Fog's
/// microarchitecture guide and Chips and Cheese.  0: unknown.
static unsigned entriesFor(StringRef CPU) {
  return StringSwitch<unsigned>(CPU)
      .Cases("nehalem", "corei7", "westmere", 32)
      .Cases("sandybridge", "corei7-avx", "ivybridge", "core-avx-i", 36)
      .Cases("haswell", "core-avx2", "broadwell", 42)
      .Cases("skylake", "skylake-avx512", "cascadelake", "cooperlake", 56)
      .Cases("cannonlake", "icelake-client", "icelake-server", "tigerlake",
             "rocketlake", 72)
      .Cases("alderlake", "raptorlake", "meteorlake", "sapphirerapids",
             "emeraldrapids", 114)
      .Cases("graniterapids", "graniterapids-d", 114)
      .Cases("znver1", "znver2", 44)
      .Cases("znver3", "znver4", 64)
      .Case("znver5", 104)
      .Default(0);
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
    unsigned E = entriesFor(CPU);
    if (!E)
      return ConservativeStoreBuffer; // one unknown CPU decides
    S = std::max(S, E + 1);
  }
  if (!S)
    return ConservativeStoreBuffer;
  if (FromTable)
    *FromTable = true;
  return S;
}

} // namespace wsff
