//===- TaskReach.h - Which locals a task can reach -------------*- C++ -*-===//
//
// For one spawn: the locals of the spawning function that its task may use
// by address (their storage must outlive the task), and those a pointer it
// uses was read from (what they own must outlive it: their destructors may
// free it).  Followed back from what the task receives — the spawned call's
// arguments and the result's address — through the function's own stores,
// copies and calls: a call's result may point into anything given to it; a
// callee may store any pointer it is given into the object it writes; a
// copy or move constructor only copies; a constructor writes its own object
// only.  Flow-insensitive.  C++ callees are told apart by their Itanium
// names (CalleeKinds).
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_TASKREACH_H
#define WSFF_TASKREACH_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"

namespace wsff {

/// What a callee is to the analysis.
enum class CalleeKind { Plain, Constructor, Destructor, CopyOrMove, Identity };

/// The kinds of the functions F calls.  A call of a C cleanup function on
/// the local declared with __attribute__((cleanup)) (the clang plugin's
/// annotation names it: AbiNames.h) is that local's destructor.
class CalleeKinds {
public:
  explicit CalleeKinds(llvm::Function &F);
  CalleeKind of(const llvm::CallBase &CB) const;

private:
  llvm::DenseMap<const llvm::Function *, CalleeKind> Kinds;
  llvm::DenseMap<const llvm::Value *, llvm::StringRef> CleanupOf;
};

/// The cleanup function named by an llvm.var.annotation call of the clang
/// plugin (AbiNames.h, CleanupAnnotationPrefix), or "".
llvm::StringRef cleanupAnnotation(const llvm::Instruction &I);

/// Erases those annotations from M, once ws-lower has read them; true if
/// there were any.
bool dropCleanupAnnotations(llvm::Module &M);

class TaskReach {
public:
  /// Ignored: calls the analysis does not look into (the spawn markers and
  /// spawned calls).
  TaskReach(const CalleeKinds &Kinds,
            const llvm::SmallPtrSetImpl<const llvm::Instruction *> &Ignored)
      : Kinds(Kinds), Ignored(Ignored) {}

  /// The task receives the value V (an argument of the spawned call).
  void received(llvm::Value *V) { copied(V); }
  /// The task receives a copy of the memory P points to (byval).
  void receivedCopyOf(llvm::Value *P) { contentOf(P); }
  /// The task may access the memory P points to.
  void dereferences(llvm::Value *P) { addr(P); }

  llvm::SmallPtrSet<llvm::AllocaInst *, 8> Allocas, Shared;

private:
  void bases(llvm::Value *P, llvm::SmallVectorImpl<llvm::Value *> &Out);
  void addr(llvm::Value *P);
  void contentOf(llvm::Value *P);
  void copied(llvm::Value *V);
  void copiedOperands(llvm::Instruction *I);
  void content(llvm::Value *O, bool Deref);

  enum Mode { Addr, Copied, Content, ContentDeref };
  const CalleeKinds &Kinds;
  const llvm::SmallPtrSetImpl<const llvm::Instruction *> &Ignored;
  llvm::DenseSet<std::pair<llvm::Value *, int>> Done; ///< (value, Mode) seen
};

/// The allocas whose address some store puts in memory the function did
/// not allocate (a global, what a pointer argument or a loaded pointer
/// points to): any task may find them there.
llvm::SmallPtrSet<llvm::AllocaInst *, 4> escapedAllocas(llvm::Function &F);

} // namespace wsff

#endif
