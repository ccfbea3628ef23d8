//===- DebugInfoMutator.cpp - Debug info, as clang -g leaves it -----------===//

#include "DebugInfoMutator.h"

#include "RandomIR.h"

#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/FuzzMutate/RandomIRBuilder.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace wsfuzz {

void DebugInfoMutator::mutate(Function &F, RandomIRBuilder &IB) {
  Rng &R = IB.Rand;
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  DICompileUnit *CU = M.debug_compile_units_begin() == M.debug_compile_units_end()
                          ? nullptr
                          : *M.debug_compile_units_begin();
  DIBuilder DIB(M, /*AllowUnresolved=*/false, CU);
  if (!CU) {
    CU = DIB.createCompileUnit(dwarf::DW_LANG_C11, DIB.createFile("fuzz.c", "/wsfuzz"),
                               "wsfuzz", /*isOptimized=*/true, "", 0);
    if (!M.getModuleFlag("Debug Info Version"))
      M.addModuleFlag(Module::Warning, "Debug Info Version", DEBUG_METADATA_VERSION);
  }
  DIFile *File = CU->getFile();
  DISubprogram *SP = F.getSubprogram();
  if (!SP) {
    unsigned Line = 1 + below(R, 500);
    SP = DIB.createFunction(File, F.getName(), F.getName(), File, Line,
                            DIB.createSubroutineType(DIB.getOrCreateTypeArray({})),
                            Line, DINode::FlagZero, DISubprogram::SPFlagDefinition);
    F.setSubprogram(SP);
  }
  for (Instruction &I : instructions(F))
    if (!I.getDebugLoc() && chance(R, 70))
      I.setDebugLoc(DILocation::get(Ctx, SP->getLine() + below(R, 50), below(R, 80), SP));

  // A variable: the address of an alloca (dbg.declare), or a value.
  if (Instruction *At = randomInsertionPoint(F, R)) {
    unsigned Line = SP->getLine() + below(R, 50);
    DILocalVariable *Var = DIB.createAutoVariable(
        SP, "v" + std::to_string(below(R, 100)), File, Line,
        DIB.createBasicType("long", 64, dwarf::DW_ATE_signed));
    DILocation *Loc = DILocation::get(Ctx, Line, 0, SP);
    SmallVector<AllocaInst *, 8> Allocas;
    for (Instruction &I : F.getEntryBlock())
      if (auto *A = dyn_cast<AllocaInst>(&I))
        Allocas.push_back(A);
    if (!Allocas.empty() && chance(R, 50)) {
      DIB.insertDeclare(oneOf(R, Allocas), Var, DIB.createExpression(), Loc, At);
    } else {
      ValuePool Pool(*At, R);
      DIB.insertDbgValueIntrinsic(Pool.get(Pool.typeOfSomeValue()), Var,
                                  DIB.createExpression(), Loc, At);
    }
  }
  DIB.finalizeSubprogram(SP);
  DIB.finalize();
}

void keepDebugInfoValid(Module &M) {
  for (Function &F : M)
    if (DISubprogram *SP = F.getSubprogram())
      for (Instruction &I : instructions(F))
        if (isa<CallBase>(I) && !I.getDebugLoc())
          I.setDebugLoc(DILocation::get(M.getContext(), 0, 0, SP));
}

} // namespace wsfuzz
