//===- Pipelines.cpp - The wsff pipelines a fuzzed module goes through ----===//

#include "Pipelines.h"

#include "AbiNames.h"
#include "Registration.h"
#include "WsOptions.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace wsfuzz {

static constexpr StringLiteral PipelineMD = "wsfuzz.pipeline";

const std::vector<Pipeline> &allPipelines() {
  static const std::vector<Pipeline> All = [] {
    std::vector<Pipeline> V;
    // Every row of ws/variants.def, then the generic entry points.
    std::vector<std::string> Vars;
    for (const wsff::VariantInfo &Row : wsff::allVariants())
      Vars.push_back(Row.Name.str());
    Vars.push_back("runtime");
    unsigned K = 0;
    for (const std::string &Var : Vars) {
      // Options vary with the variant so every one is seen with several.
      std::string S = std::to_string(8u << (K % 5));
      std::string Delta = std::to_string(1 + K % 7);
      ++K;
      auto Add = [&](bool OptimizeFirst, const std::string &Passes) {
        std::string Key = (OptimizeFirst ? "default<O2> without wsff, then " : "") +
                          ("-ws-variant=" + Var + " -passes='" + Passes + "'");
        V.push_back({Key, OptimizeFirst, Passes, Var});
      };
      std::string Lower = "ws-lower<variant=" + Var;
      std::string FenceFree = "ws-fencefree<variant=" + Var;
      Add(false, FenceFree + ">");
      Add(false, FenceFree + ";abi-bc=none>");
      Add(false, FenceFree + ";fence=mfence;store-buffer=" + S + ">");
      Add(false, Lower + ";abi-bc=none>,print<ws-storecount>");
      Add(false, Lower + ">,ws-anticoalesce<target-delta=" + Delta +
                     ";store-buffer=" + S + ">,ws-delta<variant=" + Var + ">");
      Add(false, "default<O2>");
      Add(false, FenceFree + ">,default<O2>,print<ws-storecount>");
      Add(true, FenceFree + ">,default<O2>");
    }
    return V;
  }();
  return All;
}

const Pipeline &pipelineOf(const Module &M, uint64_t Hash) {
  const std::vector<Pipeline> &All = allPipelines();
  if (const NamedMDNode *N = M.getNamedMetadata(PipelineMD))
    if (N->getNumOperands() && N->getOperand(0)->getNumOperands())
      if (auto *Key = dyn_cast<MDString>(N->getOperand(0)->getOperand(0)))
        for (const Pipeline &P : All)
          if (P.Key == Key->getString())
            return P;
  return All[Hash % All.size()];
}

void setPipeline(Module &M, const Pipeline &P) {
  if (NamedMDNode *N = M.getNamedMetadata(PipelineMD))
    M.eraseNamedMetadata(N);
  LLVMContext &Ctx = M.getContext();
  M.getOrInsertNamedMetadata(PipelineMD)
      ->addOperand(MDNode::get(Ctx, MDString::get(Ctx, P.Key)));
}

namespace {

/// Counts errors, as opt would report them; builds the wsff passes'
/// remarks (their code runs, -Rpass=ws-* in clang) and drops them.
class Collector : public DiagnosticHandler {
public:
  explicit Collector(Outcome &Out) : Out(Out) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error)
      return true;
    ++Out.Errors;
    raw_string_ostream OS(Out.Diagnostics);
    DiagnosticPrinterRawOStream DP(OS);
    OS << "error: ";
    DI.print(DP);
    OS << "\n";
    return true;
  }
  bool isAnalysisRemarkEnabled(StringRef PassName) const override {
    return PassName.starts_with("ws-");
  }
  bool isPassedOptRemarkEnabled(StringRef PassName) const override {
    return PassName.starts_with("ws-");
  }
  bool isAnyRemarkEnabled() const override { return true; }

private:
  Outcome &Out;
};

/// As opt: a target machine when the module names a known triple.
TargetMachine *targetMachineFor(const Module &M) {
  static StringMap<std::unique_ptr<TargetMachine>> Cache;
  Triple T(M.getTargetTriple());
  if (T.getArch() == Triple::UnknownArch)
    return nullptr;
  auto [It, New] = Cache.try_emplace(T.str());
  if (New) {
    std::string Err;
    if (const Target *Tgt = TargetRegistry::lookupTarget(T.str(), Err))
      It->second.reset(Tgt->createTargetMachine(T.str(), "", "", TargetOptions(),
                                                std::nullopt));
  }
  return It->second.get();
}

void runPasses(Module &M, TargetMachine *TM, StringRef Text,
               const wsff::WsOptions *Ws) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM);
  if (Ws)
    wsff::registerPasses(PB, *Ws); // what the plugin's entry point does
  if (TM)
    TM->registerPassBuilderCallbacks(PB);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, Text))
    report_fatal_error(Twine("wsfuzz: bad pipeline '") + Text +
                           "': " + toString(std::move(E)),
                       /*gen_crash_diag=*/false);
  MPM.run(M, MAM);
}

} // namespace

Outcome runPipeline(Module &M, const Pipeline &P, StringRef AbiDir) {
  Outcome Out;
  M.getContext().setDiagnosticHandler(std::make_unique<Collector>(Out));
  TargetMachine *TM = targetMachineFor(M);
  if (P.OptimizeFirst)
    runPasses(M, TM, "default<O2>", nullptr);
  wsff::WsOptions Opts;
  cantFail(Opts.set("variant=" + P.Variant));
  // The fast paths the plugin would pick next to itself.
  StringRef Bitcode = StringRef(P.Passes).contains("fence=mfence")
                          ? "ws-abi-mfence.bc"
                          : "ws-abi.bc";
  cantFail(Opts.set(("abi-bc=" + AbiDir + "/" + Bitcode).str()));
  runPasses(M, TM, P.Passes, &Opts);
  raw_string_ostream OS(Out.Verifier);
  verifyModule(M, &OS);
  return Out;
}

std::string reproduceCommand(const Pipeline &P, StringRef File) {
  std::string Cmd;
  std::string Input = File.str();
  if (P.OptimizeFirst) {
    Cmd = WSFUZZ_OPT " -passes='default<O2>' " + Input + " -o - | ";
    Input = "-";
  }
  return Cmd + WSFUZZ_OPT " -load-pass-plugin=" WSFUZZ_PLUGIN " -ws-variant=" +
         P.Variant + " -passes='" + P.Passes + "' -disable-output " + Input;
}

} // namespace wsfuzz
