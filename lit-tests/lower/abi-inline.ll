; With the runtime's bitcode the fast paths the module calls are linked in,
; internal and always-inline, with the helpers they call; what they call in
; libws stays external.  Only the chosen variant's fast paths come in.  They
; address the owner's deque through the thread-local ws_my_dq.  The stores
; of the helpers named in ws/abi.def are tagged for the store count: the T
; store (ws_store_tail) as the tail store, THEP's echo as a counted one.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc;variant=thep>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>' -S %s | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>' -S %s | FileCheck %s --check-prefix=ONLY
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>,always-inline' -S %s | FileCheck %s --check-prefix=INLINED
; Everything the fast paths call is in ws/abi.def: no warning.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>' -disable-output %s 2>&1 | count 0
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

; CHECK: @ws_my_dq = external {{.*}}thread_local({{.*}}) global %struct.ws_dq
; CHECK-DAG: define internal ptr @__ws_tail()
; CHECK-DAG: define internal void @__ws_push_thep(ptr
; CHECK-DAG: define internal i32 @__ws_take_thep(ptr
; The worker's T store in take() carries the take marker.
; CHECK-DAG: call void asm sideeffect "# ws.take"
; CHECK-DAG: store atomic i64 {{.*}}, !ws.tstore
; CHECK-DAG: store atomic i64 {{.*}}, !ws.store
; CHECK-DAG: declare {{.*}}i32 @ws_thep_take_conflict_self(ptr

; The default variant is FF-MB: FF-THE's owner, no echo.
; DEFAULT-DAG: define internal void @__ws_push_ffmb(ptr
; DEFAULT-DAG: define internal i32 @__ws_take_ffmb(ptr
; DEFAULT-DAG: declare {{.*}}i32 @ws_ffthe_take_conflict_self(ptr

; Always-inline: once inlined, the clone has the fast paths in place, the
; take marker among them.
; INLINED-LABEL: define internal void @t.ws(
; INLINED-NOT:     call {{.*}}@__ws_{{push|take|tail}}
; INLINED:         call void asm sideeffect "# ws.take"
; INLINED-NOT:     call {{.*}}@__ws_{{push|take|tail}}
; INLINED:         ret void

; Nothing of the other variants, and the fast paths take the user's -march.
; ONLY-NOT: @__ws_take_the(
; ONLY-NOT: @__ws_take_cl(
; ONLY-NOT: @__ws_push_split(
; ONLY-NOT: "target-cpu"

; MISSING: warning: wsff: cannot read the runtime fast paths from {{.*}}missing.bc
; MISSING: declare ptr @__ws_tail()
; MISSING: declare void @__ws_push_ffmb(ptr)
; MISSING: declare i32 @__ws_take_ffmb(ptr)
; MISSING: declare ptr @__ws_join(ptr)
