; ws-anticoalesce pads only the takes of fence-free variants (ws/variants.def
; fence_free 1).  THE's and Chase-Lev's take end in a locked instruction
; that drains the store buffer: nothing after it can coalesce with T := t,
; and no thief reasons about delta.  (It used to pad them too, through an
; initial-exec scratch address declared after ws-lower had set the TLS
; model.)  A fence-free variant's pad uses the TLS model of the runtime's
; other state: local-exec in an executable.
; REQUIRES: x86_64
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc;variant=the>,always-inline,ws-anticoalesce<variant=the>' -S %s | FileCheck %s --implicit-check-not=ws_tls_scratch
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc;variant=cl>,always-inline,ws-anticoalesce<variant=cl>' -S %s | FileCheck %s --implicit-check-not=ws_tls_scratch
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc;variant=ffthe>,always-inline,ws-anticoalesce<variant=ffthe>' -S %s | FileCheck %s --check-prefix=FF

; CHECK: call void asm sideeffect "# ws.take"
; FF: @ws_tls_scratch = external dso_local thread_local(localexec) global
; FF: call void asm sideeffect "# ws.take"

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
