//===- AbiLinker.cpp - Inline the runtime's fast paths --------------------===//

#include "AbiLinker.h"

#include "Diagnose.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace llvm;

namespace wsff {

void linkAbiFastPaths(Module &M, const WsOptions &Opts) {
  std::string Path = Opts.abiBitcodePath();
  SMDiagnostic Err;
  std::unique_ptr<Module> Src = parseIRFile(Path, Err, M.getContext());
  if (!Src) {
    warnIn(M, "wsff: cannot read the runtime fast paths from " + Path + " (" +
                  Err.getMessage() + "); calling them out of line");
    return;
  }
  if (Triple(Src->getTargetTriple()).getArch() !=
      Triple(M.getTargetTriple()).getArch()) {
    warnIn(M, "wsff: " + Path + " is for " + Src->getTargetTriple() +
                  ", not " + M.getTargetTriple() +
                  "; calling the runtime out of line");
    return;
  }
  Src->setTargetTriple(M.getTargetTriple());
  Src->setDataLayout(M.getDataLayout());
  // The user's -march decides the code; the fast paths use plain x86-64.
  for (Function &Fn : *Src)
    for (StringRef A : {"target-cpu", "target-features", "tune-cpu"})
      Fn.removeFnAttr(A);

  StringSet<> Linked;
  bool Failed = Linker::linkModules(
      M, std::move(Src), Linker::Flags::LinkOnlyNeeded,
      [&Linked](Module &Dst, const StringSet<> &GVS) {
        for (const auto &Name : GVS)
          Linked.insert(Name.getKey());
        internalizeModule(Dst, [&GVS](const GlobalValue &GV) {
          return !GV.hasName() || !GVS.count(GV.getName());
        });
      });
  if (Failed) {
    warnIn(M, "wsff: linking " + Path + " failed; calling the runtime out of line");
    return;
  }
  for (const auto &Name : Linked)
    if (Function *Fn = M.getFunction(Name.getKey()))
      if (!Fn->isDeclaration()) {
        Fn->removeFnAttr(Attribute::NoInline);
        Fn->addFnAttr(Attribute::AlwaysInline);
      }
}

} // namespace wsff
