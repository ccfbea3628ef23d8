; Spawns are counted only when asked (stats=1, or -ws-stats for opt; the
; runtime prints spawns=uncounted otherwise): one increment of the
; thread-local ws_tls_spawns per spawn, and the record says the module
; counts (flags bit 1) so that the runtime trusts the total only when every
; module does.  A module that has the counter under another type is an
; error.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;stats=1>' -S %s | FileCheck %s --check-prefix=COUNT
; RUN: %opt -load-pass-plugin=%plugin -ws-stats -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s --check-prefix=COUNT
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s --check-prefix=NOCOUNT --implicit-check-not=ws_tls_spawns
; RUN: sed 's/^; DECLARED-OTHERWISE: //' %s | not %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;stats=1>' -disable-output 2>&1 | FileCheck %s --check-prefix=ERR

; DECLARED-OTHERWISE: @ws_tls_spawns = external thread_local global i32

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @g(i64)

define void @t(i64 %n) {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g(i64 %n)
  call void @__ws_spawn_end()
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g(i64 0)
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}

; COUNT: @ws_tls_spawns = external thread_local(initialexec) global i64
; COUNT: @__ws_delta_record = internal constant {{.*}} { i32 2004051046, i32 2, i32 1, i32 256, i32 128, i32 7, i32 1, i32 3,
; Each spawn's increment sits at the spawn, before its push; nothing else
; counts.
; COUNT-LABEL: define internal void @t.ws(
; COUNT:         [[A:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @ws_tls_spawns)
; COUNT-NEXT:    [[OLD:%.*]] = load i64, ptr [[A]]
; COUNT-NEXT:    [[NEW:%.*]] = add i64 [[OLD]], 1
; COUNT-NEXT:    store i64 [[NEW]], ptr [[A]]
; COUNT:         call void @__ws_push_ffmb(
; COUNT:         [[B:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @ws_tls_spawns)
; COUNT-NEXT:    [[OLDB:%.*]] = load i64, ptr [[B]]
; COUNT-NEXT:    [[NEWB:%.*]] = add i64 [[OLDB]], 1
; COUNT-NEXT:    store i64 [[NEWB]], ptr [[B]]
; COUNT:         call void @__ws_push_ffmb(
; COUNT-NOT:     @ws_tls_spawns
; COUNT:       ws.synced
; COUNT-NOT:     @ws_tls_spawns
; COUNT-LABEL: define internal void @__ws_body.t.ws.0(
; COUNT-NOT:     @ws_tls_spawns

; NOCOUNT: @__ws_delta_record = internal constant {{.*}} { i32 2004051046, i32 2, i32 1, i32 256, i32 128, i32 7, i32 0, i32 3,

; ERR: error: ws_tls_spawns is the wsff runtime's spawn counter; the module declares it otherwise
