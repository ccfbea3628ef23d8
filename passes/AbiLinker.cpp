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

/// The table name of a linked helper: the linker renames a function whose
/// name the module already uses (ws_store_tail.3).
static StringRef tableName(const Function &Fn) {
  StringRef N = Fn.getName();
  size_t Dot = N.find('.');
  return Dot == StringRef::npos ? N : N.take_front(Dot);
}

/// Tags the stores of the fast paths' store helpers (ws/abi.def
/// WS_ABI_STORE) for the store-count analysis; the tags survive inlining.
static void tagHelperStores(Function &Fn) {
  std::optional<AbiStoreKind> Kind = abiStoreKind(tableName(Fn));
  if (!Kind)
    return;
  MDNode *Empty = MDNode::get(Fn.getContext(), {});
  for (Instruction &I : instructions(Fn))
    if (auto *SI = dyn_cast<StoreInst>(&I))
      SI->setMetadata(*Kind == AbiStoreKind::Tail ? TailStoreMD : CountedStoreMD,
                      Empty);
}

void setRuntimeTlsModel(Module &M, GlobalVariable &GV) {
  bool Executable = M.getPICLevel() == PICLevel::NotPIC ||
                    M.getPIELevel() != PIELevel::Default;
  GV.setThreadLocalMode(Executable ? GlobalValue::LocalExecTLSModel
                                   : GlobalValue::InitialExecTLSModel);
  GV.setDSOLocal(Executable);
}

/// The runtime's per-thread state, addressed by the fast paths, is defined
/// in libws; the lowered module declares it with the TLS model of its
/// output.
static void setTlsModel(Module &M) {
  for (StringRef Name : ThreadLocalNames)
    if (auto *GV = dyn_cast_or_null<GlobalVariable>(M.getNamedValue(Name)))
      if (GV->isThreadLocal() && GV->isDeclaration())
        setRuntimeTlsModel(M, *GV);
}

/// The names of the runtime's per-thread state are reserved: a module that
/// has something else under one cannot take the fast paths.
static bool reservedNamesFree(Module &M) {
  for (StringRef Name : ThreadLocalNames) {
    GlobalValue *GV = M.getNamedValue(Name);
    auto *Var = dyn_cast_or_null<GlobalVariable>(GV);
    if (GV && !(Var && Var->isDeclaration() && Var->isThreadLocal())) {
      error(M.getContext(), Twine(Name) + " is reserved for the wsff runtime; "
                                          "the module defines it otherwise");
      return false;
    }
  }
  return true;
}

void linkAbiFastPaths(Module &M, const WsOptions &Opts) {
  if (!reservedNamesFree(M))
    return;
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

  // Nor do its module flags decide anything: ws-abi.bc is built -fPIC, and
  // its "PIC Level" would otherwise make a -fno-pic or PIE module a shared
  // object's code (and the runtime's TLS initial-exec).
  if (NamedMDNode *Flags = Src->getModuleFlagsMetadata())
    Flags->eraseFromParent();

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
  // What the fast paths brought: the entry points the module called, and
  // the helpers they call.  Every function of the runtime they call in
  // turn must be one the store-count analysis knows (ws/abi.def).
  SmallVector<Function *, 16> Work;
  for (const auto &Name : Linked)
    if (Function *Fn = M.getFunction(Name.getKey()))
      Work.push_back(Fn);
  SmallPtrSet<Function *, 16> Seen(Work.begin(), Work.end());
  while (!Work.empty()) {
    Function *Fn = Work.pop_back_val();
    if (Fn->isDeclaration())
      continue;
    Fn->removeFnAttr(Attribute::NoInline);
    Fn->addFnAttr(Attribute::AlwaysInline);
    tagHelperStores(*Fn);
    for (Instruction &I : instructions(*Fn))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction()) {
          if (Callee->isDeclaration() && !Callee->isIntrinsic() &&
              !abiCallEffect(Callee->getName()))
            warnIn(M, "wsff: the runtime fast path " + Fn->getName() +
                          " calls " + Callee->getName() +
                          ", which ws/abi.def does not list; the runtime and "
                          "the plugin do not match");
          if (Seen.insert(Callee).second)
            Work.push_back(Callee);
        }
  }
  setTlsModel(M);
}

} // namespace wsff
