; XFAIL: *
; BUG (suspected; cost, not correctness): ws-anticoalesce pads the takes of
; the fenced variants too.  ws/variants.def says the pass counts x and
; inserts anti-coalescing stores for the fence-free variants (fence_free
; 1); THE's and Chase-Lev's take end in a locked instruction (xchg) that
; drains the store buffer, so no store after it is needed.  Yet with the
; fast paths inlined their x is 0 and the pass adds a store to a scratch
; line (through an initial-exec TLS address: the scratch lines are declared
; after ws-lower set the TLS model) to every fenced take: `ws-clang
; -fws-fencefree=the -O2 -Rpass=ws-anticoalesce` on fib reports "inserted
; 1 store(s) after take()".
; Expected: no anti-coalescing store in a module whose record names a
; fenced variant.
; REQUIRES: x86_64
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc;variant=the>,always-inline,ws-anticoalesce<variant=the>' -S %s | FileCheck %s --implicit-check-not=ws_tls_scratch
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc;variant=cl>,always-inline,ws-anticoalesce<variant=cl>' -S %s | FileCheck %s --implicit-check-not=ws_tls_scratch

; CHECK: call void asm sideeffect "# ws.take"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @g()

define void @t() {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}
