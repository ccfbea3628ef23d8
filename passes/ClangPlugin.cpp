//===- ClangPlugin.cpp - clang -fplugin=WsffPlugin.so ---------------------===//
//
// The same library is a clang frontend plugin: -fplugin alone defines
// WS_FENCEFREE (ws_spawn/ws_sync stop being their serial elision) and
// installs the passes through CodeGenOptions::PassBuilderCallbacks, the way
// Enzyme's ClangEnzyme does.  Options: -fplugin-arg-wsff-<key>=<value> with
// the keys of WsOptions::set (variant, fence, abi-bc, store-buffer,
// target-delta).  Without -g it turns on location tracking so the passes'
// errors carry file:line:col (no debug info is emitted), and at -O0 it has
// clang emit lifetime markers (ws-lower's syncs before locals die).
//
// opt loads this library too, and opt has no clang in it.  The build
// weakens this file's references to clang (objcopy --weaken-symbol), and
// the action registers itself only when clang's symbols are present.
//
//===----------------------------------------------------------------------===//

#include "AbiNames.h"
#include "Registration.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Passes/PassBuilder.h"

#include <dlfcn.h>

using namespace clang;

namespace {

/// C's destructors: a local declared with __attribute__((cleanup(fn)))
/// gets an annotation naming fn, which clang emits as llvm.var.annotation
/// on the local's alloca, so that ws-lower knows the call of fn at the end
/// of its scope for the local's destructor and syncs before it when a task
/// may still use what the local holds.  Run on each declaration before
/// clang's code generator sees it (the action comes before the main one).
class CleanupAnnotator : public ASTConsumer,
                         public RecursiveASTVisitor<CleanupAnnotator> {
  ASTContext *Ctx = nullptr;
  std::unique_ptr<ASTNameGenerator> Names;

public:
  void Initialize(ASTContext &C) override {
    Ctx = &C;
    Names = std::make_unique<ASTNameGenerator>(C);
  }
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      TraverseDecl(D);
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitVarDecl(VarDecl *VD) {
    const auto *Cleanup = VD->getAttr<CleanupAttr>();
    FunctionDecl *Fn = Cleanup ? Cleanup->getFunctionDecl() : nullptr;
    if (!Fn || !VD->isLocalVarDecl())
      return true;
    std::string Note = (wsff::CleanupAnnotationPrefix + Names->getName(Fn)).str();
    for (const auto *A : VD->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == Note)
        return true;
    VD->addAttr(AnnotateAttr::CreateImplicit(*Ctx, Note, nullptr, 0, VD->getSourceRange()));
    return true;
  }
};

class WsffAction : public PluginASTAction {
  wsff::WsOptions Opts;

protected:
  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args)
      if (llvm::Error E = Opts.set(Arg)) {
        DiagnosticsEngine &D = CI.getDiagnostics();
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "%0"))
            << llvm::toString(std::move(E));
        return false;
      }
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    CodeGenOptions &CG = CI.getCodeGenOpts();
    wsff::WsOptions O = Opts;
    CG.PassBuilderCallbacks.push_back(
        [O](llvm::PassBuilder &PB) { wsff::registerPasses(PB, O); });
    if (CG.getDebugInfo() == llvm::codegenoptions::NoDebugInfo)
      CG.setDebugInfo(llvm::codegenoptions::LocTrackingOnly);
    // ws-lower syncs before the end of life of a local that a task may
    // still use (a loop body's array): it needs the lifetime markers,
    // which clang emits at -O0 only for AddressSanitizer's use-after-scope
    // check.  Without -fsanitize=address the flag does nothing else; the
    // markers generate no code at -O0.
    CG.SanitizeAddressUseAfterScope = true;
    Preprocessor &PP = CI.getPreprocessor();
    PP.setPredefines(PP.getPredefines() + "#define WS_FENCEFREE 1\n");
    return std::make_unique<CleanupAnnotator>();
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

__attribute__((constructor)) static void registerWithClang() {
  if (!dlsym(RTLD_DEFAULT, "_ZN5clang14FrontendAction13EndSourceFileEv"))
    return; // loaded by opt or another non-clang host
  static FrontendPluginRegistry::Add<WsffAction> Registration(
      "wsff", "lower ws_spawn/ws_sync onto the wsff fence-free runtime");
}
