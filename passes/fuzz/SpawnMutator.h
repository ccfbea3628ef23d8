//===- SpawnMutator.h - Spawn regions and syncs, good and bad --*- C++ -*-===//
//
// Puts what <ws/ws.h> leaves in the IR into a function at a random place:
//
//   call void (ptr, ...) @__ws_spawn_begin(ptr %res_or_null, ptr @fn)
//   ...arguments...
//   %r = call T @fn(args)          (or an invoke)
//   store T %r, ptr %res
//   call void @__ws_spawn_end()
//
// and `call void @__ws_sync()`, with random callees (new declarations and
// definitions, the module's own functions, pointers, aliases), signatures
// (vectors, structs, byval, sret, varargs), and placements (straight-line,
// under a branch, in a loop, in unreachable code, with a `?:` in the
// arguments).  A quarter of the regions are then broken the ways a
// hand-written or optimized module breaks them: no end, two ends, an end on
// one path only, another callee, side effects or a return after the call,
// the result used after the end, a sync or a begin inside, a begin with the
// wrong arguments.
//
//===----------------------------------------------------------------------===//
#ifndef WSFUZZ_SPAWNMUTATOR_H
#define WSFUZZ_SPAWNMUTATOR_H

#include "llvm/FuzzMutate/IRMutator.h"

namespace wsfuzz {

class SpawnMutator : public llvm::IRMutationStrategy {
public:
  uint64_t getWeight(size_t CurrentSize, size_t MaxSize,
                     uint64_t CurrentWeight) override {
    return 100;
  }
  using IRMutationStrategy::mutate;
  void mutate(llvm::Function &F, llvm::RandomIRBuilder &IB) override;
};

} // namespace wsfuzz

#endif
