; The fast paths address the runtime's thread-local state (ws_my_dq, and
; ws_tls_spawns when counting).  In an executable (not PIC, or PIE) it is
; in the executable's own TLS block: local-exec, one %fs-relative access.
; Code for a shared object (PIC without PIE) keeps initial-exec.
; REQUIRES: x86_64
; RUN: sed 's/PICLEVEL/0/; s/PIELEVEL/0/' %s | %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc;stats=1>' -S | FileCheck %s --check-prefix=EXEC
; RUN: sed 's/PICLEVEL/2/; s/PIELEVEL/2/' %s | %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc;stats=1>' -S | FileCheck %s --check-prefix=EXEC
; RUN: sed 's/PICLEVEL/2/; s/PIELEVEL/0/' %s | %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc;stats=1>' -S | FileCheck %s --check-prefix=DSO

; EXEC-DAG: @ws_my_dq = external dso_local thread_local(localexec) global
; EXEC-DAG: @ws_tls_spawns = external dso_local thread_local(localexec) global i64
; DSO-DAG: @ws_my_dq = external thread_local(initialexec) global
; DSO-DAG: @ws_tls_spawns = external thread_local(initialexec) global i64

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

!llvm.module.flags = !{!0, !1}
!0 = !{i32 8, !"PIC Level", i32 PICLEVEL}
!1 = !{i32 7, !"PIE Level", i32 PIELEVEL}
