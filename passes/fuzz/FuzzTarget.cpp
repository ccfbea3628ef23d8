//===- FuzzTarget.cpp - libFuzzer target: random IR through the wsff passes ---===//
//
// An input is an LLVM module, bitcode or text (the seeds are llvm-stress
// output).  The custom mutator parses it, applies one to three IR
// mutations (the wsff mutators, or LLVM's own FuzzMutate strategies),
// sometimes picks another pipeline, and writes bitcode back.  Each run
// puts a valid module through its pipeline and fails (abort, so libFuzzer
// saves the input) when the result is invalid IR, or, for one input in
// four, differs from a second run's; crashes, sanitizer reports and hangs
// (-timeout) fail by themselves.  Error diagnostics are fine: they are how
// the passes reject a bad use of the builtins.
//
//===----------------------------------------------------------------------===//

#include "ContractMutator.h"
#include "DebugInfoMutator.h"
#include "Pipelines.h"
#include "SpawnMutator.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/FuzzMutate/IRMutator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <random>

using namespace llvm;

namespace {

std::unique_ptr<Module> readModule(const uint8_t *Data, size_t Size,
                                   LLVMContext &Ctx) {
  StringRef Bytes(reinterpret_cast<const char *>(Data), Size);
  if (isBitcode(Data, Data + Size)) {
    Expected<std::unique_ptr<Module>> M =
        parseBitcodeFile(MemoryBufferRef(Bytes, "fuzz.bc"), Ctx);
    if (!M) {
      consumeError(M.takeError());
      return nullptr;
    }
    return std::move(*M);
  }
  SMDiagnostic Err;
  std::unique_ptr<MemoryBuffer> Text = MemoryBuffer::getMemBufferCopy(Bytes, "fuzz.ll");
  return parseAssembly(Text->getMemBufferRef(), Err, Ctx);
}

IRMutator &mutator() {
  static IRMutator *Mutator = [] {
    std::vector<TypeGetter> Types{
        Type::getInt1Ty,  Type::getInt8Ty,  Type::getInt16Ty,
        Type::getInt32Ty, Type::getInt64Ty, Type::getFloatTy,
        Type::getDoubleTy, [](LLVMContext &C) { return PointerType::getUnqual(C); }};
    std::vector<std::unique_ptr<IRMutationStrategy>> Strategies;
    Strategies.push_back(std::make_unique<wsfuzz::SpawnMutator>());
    Strategies.push_back(std::make_unique<wsfuzz::ContractMutator>());
    Strategies.push_back(std::make_unique<wsfuzz::DebugInfoMutator>());
    Strategies.push_back(std::make_unique<InjectorIRStrategy>());
    Strategies.push_back(std::make_unique<InstDeleterIRStrategy>());
    Strategies.push_back(std::make_unique<InstModificationIRStrategy>());
    Strategies.push_back(std::make_unique<InsertCFGStrategy>());
    Strategies.push_back(std::make_unique<InsertPHIStrategy>());
    Strategies.push_back(std::make_unique<SinkInstructionStrategy>());
    Strategies.push_back(std::make_unique<ShuffleBlockStrategy>());
    Strategies.push_back(std::make_unique<InsertFunctionStrategy>());
    return new IRMutator(std::move(Types), std::move(Strategies));
  }();
  return *Mutator;
}

std::string printed(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  M.print(OS, nullptr);
  return S;
}

[[noreturn]] void fail(const wsfuzz::Pipeline &P, const uint8_t *Data,
                       size_t Size) {
  errs() << "reproduce: "
         << (isBitcode(Data, Data + Size)
                 ? WSFUZZ_LLVM_DIS " <input> -o input.ll && " +
                       wsfuzz::reproduceCommand(P, "input.ll")
                 : wsfuzz::reproduceCommand(P, "<input>"))
         << "\n";
  abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // opt builds a target machine for the module's triple; the mutator only
  // ever sets x86-64.
  InitializeNativeTarget();
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  std::mt19937 R(Seed);
  // A mutation that breaks the IR (FuzzMutate's own strategies can) is
  // retried from the input; after a few, the input stays as it was.
  for (unsigned Try = 0; Try < 4; ++Try) {
    LLVMContext Ctx;
    std::unique_ptr<Module> M = readModule(Data, Size, Ctx);
    if (!M)
      return Size;
    for (unsigned K = 0, N = 1 + R() % 3; K < N; ++K)
      mutator().mutateModule(*M, R(), MaxSize);
    wsfuzz::keepDebugInfoValid(*M);
    if (R() % 100 < 15) {
      const std::vector<wsfuzz::Pipeline> &All = wsfuzz::allPipelines();
      wsfuzz::setPipeline(*M, All[R() % All.size()]);
    }
    if (verifyModule(*M))
      continue;
    if (size_t Written = writeModule(*M, Data, MaxSize))
      return Written;
  }
  return Size;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = readModule(Data, Size, Ctx);
  if (!M || verifyModule(*M))
    return -1; // not a module: nothing to test, nothing to keep
  uint64_t Hash = xxh3_64bits(ArrayRef<uint8_t>(Data, Size));
  const wsfuzz::Pipeline &P = wsfuzz::pipelineOf(*M, Hash);
  wsfuzz::Outcome Out = wsfuzz::runPipeline(*M, P, WSFUZZ_ABI_DIR);
  if (!Out.Verifier.empty()) {
    errs() << "wsfuzz: " << P.Key << " produced invalid IR:\n" << Out.Verifier;
    if (Out.Errors)
      errs() << "after these diagnostics (opt stops at the first, clang goes "
                "on to optimize and generate code):\n"
             << Out.Diagnostics;
    fail(P, Data, Size);
  }
  // One input in four runs again in a fresh context: the output must not
  // depend on where things are in memory (pointer-keyed orders).
  if (Hash % 4 == 0) {
    LLVMContext Again;
    std::unique_ptr<Module> M2 = readModule(Data, Size, Again);
    wsfuzz::runPipeline(*M2, P, WSFUZZ_ABI_DIR);
    std::string First = printed(*M), Second = printed(*M2);
    if (First != Second) {
      auto [A, B] = std::mismatch(First.begin(), First.end(), Second.begin(),
                                  Second.end());
      auto Line = [](const std::string &S, std::string::const_iterator At) {
        auto Begin = S.begin() + S.rfind('\n', At - S.begin()) + 1;
        return std::string(Begin, std::find(At, S.end(), '\n'));
      };
      errs() << "wsfuzz: " << P.Key << " gave two outputs for one input:\n  "
             << Line(First, A) << "\n  " << Line(Second, B) << "\n";
      fail(P, Data, Size);
    }
  }
  return 0;
}
