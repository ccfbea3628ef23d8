//===- WsOptions.cpp - Options shared by the wsff passes ------------------===//

#include "WsOptions.h"

#include "AbiNames.h"

#include "ws/abi.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace llvm;

namespace {
const std::string VariantDesc =
    ("wsff deque variant the module is compiled for (default " +
     wsff::DefaultVariant + ")")
        .str();
cl::opt<std::string> VariantOpt("ws-variant", cl::desc(VariantDesc),
                                cl::init(wsff::DefaultVariant.str()));
cl::opt<std::string> FenceOpt("ws-fence",
                              cl::desc("fence of the fenced variants: xchg "
                                       "(default) or mfence"),
                              cl::init("xchg"));
cl::opt<std::string> AbiBitcodeOpt(
    "ws-abi-bc", cl::desc("bitcode with the runtime fast paths (default: "
                          "ws-abi.bc next to the plugin; 'none' to call them)"),
    cl::init(""));
cl::opt<unsigned> StoreBufferOpt("ws-store-buffer",
                                 cl::desc("S assumed at compile time"),
                                 cl::init(0));
cl::opt<bool> StatsOpt("ws-stats",
                       cl::desc("count spawns for WS_STATS=1"),
                       cl::init(false));
cl::opt<unsigned> TargetDeltaOpt("ws-target-delta",
                                 cl::desc("pad take paths until delta <= N"),
                                 cl::init(0));
cl::opt<bool> RaceOpt("ws-race",
                      cl::desc("report the determinacy races of a run "
                               "(docs/race.md)"),
                      cl::init(false));
cl::opt<std::string> ScaleOpt("ws-scale",
                              cl::desc("measure work and span: off "
                                       "(default), on (instructions and a "
                                       "time clock), time or instructions"),
                              cl::init("off"));
} // namespace

namespace wsff {

unsigned WsOptions::variantId() const {
  std::optional<VariantInfo> V = findVariant(Variant);
  return V ? V->Id : (unsigned)WS_VARIANT_RUNTIME;
}

static Error badValue(StringRef Key, StringRef Value, StringRef Accepts) {
  return createStringError(inconvertibleErrorCode(),
                           formatv("wsff option {0}='{1}': expected {2}", Key,
                                   Value, Accepts)
                               .str());
}

static Error parseUnsigned(StringRef Key, StringRef Value, unsigned &Out) {
  unsigned V;
  if (Value.getAsInteger(10, V) || V == 0 || V > 65536)
    return badValue(Key, Value, "an integer from 1 to 65536");
  Out = V;
  return Error::success();
}

Error WsOptions::set(StringRef KeyValue) {
  auto [Key, Value] = KeyValue.split('=');
  if (Key == "variant") {
    if (!findVariant(Value) && Value != "runtime")
      return badValue(Key, Value, variantList() + " or runtime");
    Variant = Value.str();
    return Error::success();
  }
  if (Key == "stats") {
    if (Value != "0" && Value != "1")
      return badValue(Key, Value, "0 or 1");
    CountSpawns = Value == "1";
    return Error::success();
  }
  if (Key == "fence") {
    if (Value != "xchg" && Value != "mfence")
      return badValue(Key, Value, "xchg or mfence");
    MFence = Value == "mfence";
    return Error::success();
  }
  if (Key == "abi-bc") {
    InlineAbi = Value != "none";
    AbiBitcode = InlineAbi ? Value.str() : std::string();
    return Error::success();
  }
  if (Key == "store-buffer")
    return parseUnsigned(Key, Value, StoreBuffer);
  if (Key == "target-delta")
    return parseUnsigned(Key, Value, TargetDelta);
  if (Key == "scale") {
    if (Value != "off" && Value != "on" && Value != "time" &&
        Value != "instructions")
      return badValue(Key, Value, "off, on, time or instructions");
    Scale = Value == "off" ? "" : Value.str();
    return Error::success();
  }
  if (Key == "race") {
    if (Value != "0" && Value != "1")
      return badValue(Key, Value, "0 or 1");
    Race = Value == "1";
    return Error::success();
  }
  if (Key == "leaf-spawns") {
    if (Value != "0" && Value != "1")
      return badValue(Key, Value, "0 or 1");
    LeafSpawns = Value == "1";
    return Error::success();
  }
  if (Key == "omp-tasks") {
    if (Value != "0" && Value != "1")
      return badValue(Key, Value, "0 or 1");
    OmpTasks = Value == "1";
    return Error::success();
  }
  return createStringError(
      inconvertibleErrorCode(),
      formatv("unknown wsff option '{0}' (known: variant, stats, fence, "
              "abi-bc, store-buffer, target-delta, scale, race, leaf-spawns, omp-tasks)",
              Key)
          .str());
}

WsOptions WsOptions::fromCommandLine() {
  WsOptions O;
  if (Error E = O.set("variant=" + VariantOpt))
    report_fatal_error(std::move(E), /*gen_crash_diag=*/false);
  if (Error E = O.set("fence=" + FenceOpt))
    report_fatal_error(std::move(E), false);
  if (!AbiBitcodeOpt.empty())
    cantFail(O.set("abi-bc=" + AbiBitcodeOpt));
  O.StoreBuffer = StoreBufferOpt;
  O.CountSpawns = StatsOpt;
  O.TargetDelta = TargetDeltaOpt;
  if (Error E = O.set("scale=" + ScaleOpt))
    report_fatal_error(std::move(E), false);
  O.Race = RaceOpt;
  return O;
}

std::string WsOptions::conflict() const {
  if (!Race)
    return "";
  if (Variant != DefaultVariant)
    return "-fws-race checks a run of the default deque (" +
           DefaultVariant.str() + "), not " + Variant +
           ": drop the variant";
  if (!Scale.empty())
    return "-fws-race and -fws-scale cannot be combined: each instruments the "
           "program for a run of its own";
  return "";
}

std::string WsOptions::abiBitcodePath() const {
  if (!AbiBitcode.empty())
    return AbiBitcode;
  SmallString<256> P(pluginDirectory());
  sys::path::append(P, MFence ? "ws-abi-mfence.bc" : "ws-abi.bc");
  return std::string(P);
}

std::string pluginDirectory() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&pluginDirectory), &Info) ||
      !Info.dli_fname)
    return ".";
  return sys::path::parent_path(Info.dli_fname).str();
}

} // namespace wsff
