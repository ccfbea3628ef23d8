//===- RandomIR.h - Random types, values and places for the mutators -*- C++ -*-===//
//
// What the wsff mutators draw on: a random place to insert code, the values
// usable there (arguments and dominating instructions, else constants), and
// types close to what llvm-stress generates, so that new calls can take the
// module's own values as arguments.
//
//===----------------------------------------------------------------------===//
#ifndef WSFUZZ_RANDOMIR_H
#define WSFUZZ_RANDOMIR_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instruction.h"

#include <random>

namespace wsfuzz {

using Rng = std::mt19937;

/// A number in [0, N), N > 0.
unsigned below(Rng &R, unsigned N);
/// True with the given percentage.
bool chance(Rng &R, unsigned Percent);

template <typename T> T &oneOf(Rng &R, llvm::SmallVectorImpl<T> &Items) {
  return Items[below(R, Items.size())];
}

/// A type a value of the module could have: integers, floating point,
/// pointers, fixed vectors, small structs and arrays.
llvm::Type *randomType(llvm::LLVMContext &Ctx, Rng &R);
/// randomType, or void.
llvm::Type *randomReturnType(llvm::LLVMContext &Ctx, Rng &R);
/// A constant of type T: zero, all ones, poison, undef or a small number.
llvm::Constant *randomConstant(llvm::Type *T, Rng &R);

/// An instruction to insert before: any position of a block from its first
/// insertion point to its terminator.  Null if F has no such place.
llvm::Instruction *randomInsertionPoint(llvm::Function &F, Rng &R);

/// The values usable before an instruction.
class ValuePool {
public:
  ValuePool(llvm::Instruction &At, Rng &R);

  /// A value of type T from the pool, or a new constant.
  llvm::Value *get(llvm::Type *T);
  /// The type of a random pool value (so that calls take real values), or
  /// a random type.
  llvm::Type *typeOfSomeValue();
  /// An i1 from the pool, or a comparison of a pool integer made by B.
  llvm::Value *condition(llvm::IRBuilderBase &B);
  /// Adds a value defined later that dominates the rest of the insertion.
  void add(llvm::Value *V) { Values.push_back(V); }

private:
  Rng &R;
  llvm::LLVMContext &Ctx;
  llvm::SmallVector<llvm::Value *, 32> Values;
};

/// A static alloca of T in F's entry block.
llvm::AllocaInst *entryAlloca(llvm::Function &F, llvm::Type *T,
                              const llvm::Twine &Name);

} // namespace wsfuzz

#endif
