//===- Diagnose.h - Diagnostics of the wsff passes -------------*- C++ -*-===//
//
// A bad use of the builtins in the program is a compile error with the
// source location of the offending call (DiagnosticInfoUnsupported, as
// OpenCilk's Tapir lowering does), never a crash or an assertion.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_DIAGNOSE_H
#define WSFF_DIAGNOSE_H

#include "llvm/ADT/Twine.h"

namespace llvm {
class Function;
class LLVMContext;
class Instruction;
class Module;
} // namespace llvm

namespace wsff {

/// An error in the program at instruction I (its location, if any).
void errorAt(const llvm::Instruction &I, const llvm::Twine &Msg);
/// An error in function F where no instruction is to blame.
void errorIn(const llvm::Function &F, const llvm::Twine &Msg);
/// An error about the module as a whole.
void error(llvm::LLVMContext &Ctx, const llvm::Twine &Msg);
/// A warning about something the passes could not do (still correct code).
void warnIn(const llvm::Module &M, const llvm::Twine &Msg);

} // namespace wsff

#endif
