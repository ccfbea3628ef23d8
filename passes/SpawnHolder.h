//===- SpawnHolder.h - A C++ spawn's holder as plain IR ---------*- C++ -*-===//
//
// A C++ ws_spawn evaluates its callable and arguments into a holder
// (ws::detail::hold, ws/spawn_cxx.h) through always_inline helpers.  Before
// ws-lower reads a spawning function, the helpers are inlined, their own
// stack slots promoted to registers, and each value stored once into the
// holder forwarded to the loads the spawn makes: the spawned call then names
// the function itself and takes the computed values, as a C spawn does, and
// LocalLifetimes sees which of the caller's objects a task can reach.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SPAWNHOLDER_H
#define WSFF_SPAWNHOLDER_H

#include "llvm/IR/Function.h"

namespace wsff {

/// Inlines the always_inline ws::detail helpers that F calls, and forwards
/// the holder's stores to its loads.
void inlineSpawnHelpers(llvm::Function &F);

} // namespace wsff

#endif
