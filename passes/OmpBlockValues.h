//===- OmpBlockValues.h - A fast-path task's block as values -----*- C++ -*-===//
//
// A fast-path OpenMP task (OmpTasks.h) gets its data in a block in the
// creating frame, which the creator writes before the launch and the
// task's code reads.  Spawned with the block's address, the task is
// pushed with a pointer to memory the take's compiler barrier hides: at
// the sync, where the task is taken back and run in place, every word of
// the block is loaded again, and its creator's stores stay (fib with one
// task per call: six instructions of about 26 a call).
//
// Where the creator writes the block in plain ways, the words it writes
// are the task's values instead: loaded from the block at the launch
// (where the optimizer forwards them from the stores), spawned as the
// arguments of a body that writes them into a block of its own and runs
// the task's code on it.  There, taken back, SROA turns the block into
// registers, and the creator's block is dead.  A word holding an address
// in the block (the shareds pointer) is made again in the body; a word the
// creator writes a constant into is written the same constant there.
//
// Plain means: every access to the block is a load, a store of a value
// that is not the block's address but in it (at a constant offset), or a
// memcpy/memmove/memset with a constant length into it; every write is
// in the launch's basic block, before it; the passed words fit a slot's
// payload (WS_SLOT_PAYLOAD).  Anything else (a copy constructor given a
// private's address, a block too large) keeps the block's address.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_OMPBLOCKVALUES_H
#define WSFF_OMPBLOCKVALUES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace wsff {

/// Visit(I, P, Offset) for each instruction I using a pointer P into Task
/// (Task plus Offset, through GEPs of constant offsets; lifetime markers and
/// debug intrinsics skipped).  False if a GEP's offset is not constant, a
/// user is not an instruction, or Visit returns false.
bool forEachBlockUse(
    llvm::AllocaInst &Task,
    llvm::function_ref<bool(llvm::Instruction &, llvm::Value *, uint64_t)> Visit);

class BlockValues {
public:
  /// The words the creator writes into Task (an alloca) before Launch,
  /// or none if it does not write it in plain ways.
  static std::optional<BlockValues> of(llvm::AllocaInst &Task, llvm::Instruction &Launch);

  /// The types of the values passed (the body's parameters).
  llvm::SmallVector<llvm::Type *, 6> argTypes() const;
  /// The passed words, loaded from Task at B's insertion point.
  llvm::SmallVector<llvm::Value *, 6> load(llvm::IRBuilderBase &B, llvm::Value *Task) const;
  /// The words written into Block (the body's own, an alloca) from Args,
  /// as the creator wrote them, by B at the body's entry.  Where the first
  /// word is the shareds pointer (the address of the block's end), the
  /// shareds are a variable of their own: the task's code reaches them
  /// through the pointer only (clang's entry), and a block holding its
  /// own address would stay in memory, where SROA takes it apart.
  void store(llvm::IRBuilderBase &B, llvm::Value *Block,
             llvm::ArrayRef<llvm::Value *> Args) const;
  /// Erases the creator's stores of the block's address into the block:
  /// once the launch gives the words, nothing reads them.
  void dropSelfStores();

  bool operator==(const BlockValues &O) const;

private:
  enum class Kind { Passed, Constant, Self };
  struct Word {
    uint64_t Offset;
    llvm::Type *Ty;
    Kind K;
    llvm::Constant *C = nullptr; ///< Constant: the value
    uint64_t Target = 0;         ///< Self: the offset it points at
  };
  llvm::SmallVector<Word, 8> Words;
  llvm::SmallVector<llvm::StoreInst *, 1> SelfStores;
};

} // namespace wsff

#endif
