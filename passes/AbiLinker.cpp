//===- AbiLinker.cpp - Inline the runtime's fast paths --------------------===//

#include "AbiLinker.h"

#include "AbiNames.h"
#include "Diagnose.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace llvm;

namespace wsff {

/// Tags the stores of a push or take fast path for the store-count analysis
/// (the tags survive inlining).  T is the first field of ws_worker, so the
/// stores to T are the ones straight to the worker pointer, argument 0.
/// The others (the slot, THEP's echo P, the anti-coalescing counter) are
/// volatile or atomic, to lines only the owner writes, and none is written
/// twice without a T store in between.
static void tagFastPathStores(Function &Fn) {
  StringRef Name = Fn.getName();
  if (!Name.starts_with("__ws_push_") && !Name.starts_with("__ws_take_"))
    return;
  LLVMContext &Ctx = Fn.getContext();
  MDNode *Empty = MDNode::get(Ctx, {});
  for (Instruction &I : instructions(Fn))
    if (auto *SI = dyn_cast<StoreInst>(&I)) {
      if (!SI->isVolatile() && !SI->isAtomic())
        continue;
      bool ToTail = Fn.arg_size() && SI->getPointerOperand() == Fn.getArg(0);
      SI->setMetadata(ToTail ? TailStoreMD : CountedStoreMD, Empty);
    }
}

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
        tagFastPathStores(*Fn);
      }
}

} // namespace wsff
