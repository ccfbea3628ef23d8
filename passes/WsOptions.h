//===- WsOptions.h - Options shared by the wsff passes ---------*- C++ -*-===//
//
// What the passes are told: which deque variant the module is compiled for,
// which fence flavour, the S assumed at compile time and the padding target.
// They come from -fplugin-arg-wsff-<key>=<value> (clang), from pass
// parameters (opt -passes='ws-lower<variant=ffcl>'), or from the -ws-*
// command-line options (opt).
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_WSOPTIONS_H
#define WSFF_WSOPTIONS_H

#include "AbiNames.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace wsff {

struct WsOptions {
  /// A variant of ws/variants.def, or "runtime" (generic entry points: the
  /// variant is chosen by WS_DEQUE at start-up).
  std::string Variant = DefaultVariant.str();
  /// Count spawns for WS_STATS=1 (one increment per spawn).
  bool CountSpawns = false;
  /// Fenced variants use mfence instead of xchg (the paper's setting).
  bool MFence = false;
  /// Bitcode with the runtime's fast paths; empty: next to the plugin.
  std::string AbiBitcode;
  /// Inline the runtime's fast paths (link AbiBitcode into the module).
  bool InlineAbi = true;
  /// S assumed at compile time (0: derive from the target CPU).
  unsigned StoreBuffer = 0;
  /// Pad take paths so that delta <= TargetDelta (0: no padding).
  unsigned TargetDelta = 0;
  /// Measure work and span (ws-scale): "" (no), "time" (a clock chosen at
  /// run time), "instructions" (IR instructions counted, ws-scale-count).
  std::string Scale;
  /// Report the determinacy races of a run (-fws-race, docs/race.md): the
  /// hooks of the race runtime, no value tasks, no inlined fast paths.
  bool Race = false;
  /// A leaf test in front of spawns in loops (LeafSpawn.h): 1 or 0 as
  /// set (leaf-spawns=), else (-1) the clang pipeline's choice, on from -O1
  /// up; never with -fws-race or ws-scale (they need every child's strand).
  int LeafSpawns = -1;
  /// OpenMP tasks a function waits for become its own spawns (OmpTasks.h);
  /// 0: every task takes the runtime's general path.
  bool OmpTasks = true;
  bool leafSpawns() const { return LeafSpawns == 1 && !Race && Scale.empty(); }

  /// The numeric id stored in module records (enum ws_variant_id).
  unsigned variantId() const;

  /// Applies one "key=value" setting; an error names the key and what it
  /// accepts.
  llvm::Error set(llvm::StringRef KeyValue);

  /// The defaults, as overridden by the -ws-* command-line options.
  static WsOptions fromCommandLine();

  /// Why this combination cannot be compiled ("" if it can): -fws-race
  /// with another variant than the default, or with ws-scale.
  std::string conflict() const;

  /// The bitcode to link for this configuration (resolving the default).
  std::string abiBitcodePath() const;
};

/// Directory holding the plugin library itself.
std::string pluginDirectory();

} // namespace wsff

#endif
