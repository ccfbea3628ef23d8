//===- ClangPlugin.cpp - clang -fplugin=WsffPlugin.so ---------------------===//
//
// The same library is a clang frontend plugin: -fplugin alone defines
// WS_FENCEFREE (ws_spawn/ws_sync stop being their serial elision) and
// installs the passes through CodeGenOptions::PassBuilderCallbacks, the way
// Enzyme's ClangEnzyme does.  Options: -fplugin-arg-wsff-<key>=<value> with
// the keys of WsOptions::set (variant, fence, abi-bc, store-buffer,
// target-delta).  Without -g it turns on location tracking so the passes'
// errors carry file:line:col (no debug info is emitted).
//
// opt loads this library too, and opt has no clang in it.  The build
// weakens this file's references to clang (objcopy --weaken-symbol), and
// the action registers itself only when clang's symbols are present.
//
//===----------------------------------------------------------------------===//

#include "Registration.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Passes/PassBuilder.h"

#include <dlfcn.h>

using namespace clang;

namespace {

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
    Preprocessor &PP = CI.getPreprocessor();
    PP.setPredefines(PP.getPredefines() + "#define WS_FENCEFREE 1\n");
    return std::make_unique<ASTConsumer>();
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
