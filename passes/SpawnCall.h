//===- SpawnCall.h - The call a ws_spawn makes -------------------*- C++ -*-===//
//
// A spawn in the IR, as <ws/ws.h> writes it:
//
//   %fn = call ptr (ptr, ...) @__ws_spawn_begin(ptr %res, ptr @f)
//   ...arguments evaluated here: they stay in the parent...
//   %r = call i64 %fn(i64 %x)      <- the spawned call, through the marker
//   store i64 %r, ptr %res         <- its result handling
//   call void @__ws_spawn_end()
//
// The begin marker returns the function it is given, so the macro evaluates
// the function expression once and the call through the marker's value is
// the spawned call, whatever else the arguments call.  IR written against
// the earlier marker, which returns nothing, names the function only: the
// spawned call is then the last call of it (or the last indirect call, when
// the marker names a pointer) before the end marker.
//
// Between the call and the end marker the frontend may put checks that do
// not depend on the call (UBSan's null and alignment checks of the result
// address, each a branch to a handler): they are the parent's, evaluated
// before the spawn, so the spawned call moves past them, to the block of
// the end marker.
//
//===----------------------------------------------------------------------===//
#ifndef WSFF_SPAWNCALL_H
#define WSFF_SPAWNCALL_H

#include "llvm/IR/Instructions.h"

namespace wsff {

/// The landing pad a call that the lowering made of an invoke unwound to
/// (its mark, WasInvokeMD), or null.
llvm::BasicBlock *formerUnwindDest(const llvm::Instruction &I);

/// Is I a call of the function named Name?
bool isCallTo(const llvm::Instruction &I, llvm::StringRef Name);

/// The end marker of the spawn Begin starts: the one every path from
/// Begin reaches first, or null (none, several, or another builtin or a
/// return on the way).
llvm::CallInst *spawnEndOf(llvm::CallInst &Begin);

/// The spawned call of the region [Begin, End], in End's block (moved
/// there past independent checks, and with the invokes on the way turned
/// into calls: an exception of a task comes out at the sync), or null if
/// the region is not the macro's shape.  Makes the call direct when the
/// begin marker names a function, and marks it so that later passes find
/// it again.
llvm::CallBase *spawnedCallOf(llvm::CallInst &Begin, llvm::CallInst &End);

} // namespace wsff

#endif
