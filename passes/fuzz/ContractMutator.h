//===- ContractMutator.h - What the passes assume of a module --*- C++ -*-===//
//
// Mutations aimed at what the wsff passes read besides the spawn regions:
// the builtins misdeclared, defined or with their address taken; the
// runtime's reserved names (__ws_push_<v>, __ws_take_<v>, the deque
// ws_my_dq, ws_tls_scratch, __ws_delta_record, ...) taken by other things; the
// metadata the passes leave for each other (!ws.variant, !ws.take,
// !ws.store, !ws.tstore) in shapes they never write; take sites (calls of
// __ws_take_<v>, the `# ws.take` asm marker); volatile and atomic stores,
// fences and read-modify-writes for the store count; target-cpu attributes
// for the compile-time S; variable-length allocas and stack save/restore;
// inlining and optnone attributes; and an x86-64 triple, so the fast paths
// link.
//
//===----------------------------------------------------------------------===//
#ifndef WSFUZZ_CONTRACTMUTATOR_H
#define WSFUZZ_CONTRACTMUTATOR_H

#include "llvm/FuzzMutate/IRMutator.h"

namespace wsfuzz {

class ContractMutator : public llvm::IRMutationStrategy {
public:
  uint64_t getWeight(size_t CurrentSize, size_t MaxSize,
                     uint64_t CurrentWeight) override {
    return 40;
  }
  using IRMutationStrategy::mutate;
  void mutate(llvm::Function &F, llvm::RandomIRBuilder &IB) override;
};

} // namespace wsfuzz

#endif
