//===- Diagnose.cpp - Diagnostics of the wsff passes ----------------------===//

#include "Diagnose.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wsff {

namespace {
/// A message without a location (LLVM 19 has no generic diagnostic).
class WsDiagnostic : public DiagnosticInfo {
  const Twine &Msg;

public:
  WsDiagnostic(const Twine &Msg, DiagnosticSeverity Severity)
      : DiagnosticInfo(kind(), Severity), Msg(Msg) {}
  void print(DiagnosticPrinter &DP) const override { DP << Msg; }
  static int kind() {
    static const int K = getNextAvailablePluginDiagnosticKind();
    return K;
  }
};
} // namespace

void error(LLVMContext &Ctx, const Twine &Msg) {
  Ctx.diagnose(WsDiagnostic(Msg, DS_Error));
}

void errorAt(const Instruction &I, const Twine &Msg) {
  const Function &F = *I.getFunction();
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, Msg, I.getDebugLoc(), DS_Error));
}

void errorIn(const Function &F, const Twine &Msg) {
  F.getContext().diagnose(DiagnosticInfoUnsupported(F, Msg, DebugLoc(), DS_Error));
}

void warnIn(const Module &M, const Twine &Msg) {
  M.getContext().diagnose(WsDiagnostic(Msg, DS_Warning));
}

} // namespace wsff
