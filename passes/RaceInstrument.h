//===- RaceInstrument.h - -fws-race: the accesses a run checks --*- C++ -*-===//
//
// ws-race-instrument, at the optimizer's end of a -fws-race build: a call
// of libws_race (ws/race_abi.def) before each memory access of the
// program's code that may race, and at each function's entry and exit for
// the call stacks of reports and the stack memory a returning frame
// releases.  A determinacy race needs two logically parallel strands to
// touch the same memory, so what no other strand can reach is not checked
// (Cilksan's way, issue 34):
//
//  * a local whose address never leaves its function (an uncaptured
//    alloca: the object, not the element accessed, as ThreadSanitizer's
//    pass asks), constant data, the lowering's own memory (!nosanitize);
//  * a second access of the same bytes in a block with no call between
//    (one strand, so the first check covers it: a read before a write of
//    the same bytes leaves the check to the write);
//  * in a loop without calls whose trip count is known on entry, an access
//    made every iteration at an address that moves by a constant stride:
//    one check of the whole strided range before the loop;
//  * any size: x87's 10-byte long double, vectors, aggregates.
//
// A function none of whose code is checked and that calls only such
// functions (fib) keeps no hooks at all: no procedure, spawn or child of
// its own for SP-bags, no entry or exit: nothing it runs can be one side
// of a race.  Atomic operations are never races and are not checked.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_RACEINSTRUMENT_H
#define WSFF_RACEINSTRUMENT_H

#include "llvm/IR/PassManager.h"

namespace wsff {

class RaceInstrumentPass : public llvm::PassInfoMixin<RaceInstrumentPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

} // namespace wsff

#endif
