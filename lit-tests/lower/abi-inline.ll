; With the runtime's bitcode the fast paths the module calls are linked in,
; internal and always-inline; what they call in libws stays external.  Only
; the chosen variant's fast paths come in.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>' -S %s | FileCheck %s
; Without a readable bitcode file: a warning, and out-of-line calls.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%t.missing.bc>' -S %s 2>&1 | FileCheck %s --check-prefix=MISSING

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

; CHECK: @ws_tls_self = external thread_local(initialexec) {{.*}}global ptr
; CHECK-DAG: define internal ptr @__ws_self() {{.*}}#[[INL:[0-9]+]]
; CHECK-DAG: define internal void @__ws_push_thep(ptr {{.*}}) {{.*}}#[[INL]]
; CHECK-DAG: define internal ptr @__ws_take_thep(ptr {{.*}}) {{.*}}#[[INL]]
; The worker's T store in take() carries the take marker.
; CHECK-DAG: call void asm sideeffect "# ws.take"
; CHECK-DAG: declare {{.*}}ptr @ws_thep_take_conflict(ptr
; CHECK-NOT: define {{.*}}@__ws_take_the(
; CHECK-NOT: define {{.*}}@__ws_take_cl(
; CHECK: attributes #[[INL]] = { alwaysinline
; CHECK-NOT: "target-cpu"

; MISSING: warning: wsff: cannot read the runtime fast paths from {{.*}}missing.bc
; MISSING: declare void @__ws_push_thep(ptr, ptr)
