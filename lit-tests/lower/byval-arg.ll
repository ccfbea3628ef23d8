; A struct passed byval is copied into the descriptor at the spawn, as the
; call would have copied it: the parent may change its variable before the
; task runs.  Both the thief's and the direct call pass the copy.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.S24 = type { i64, i64, i64 }

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @sum(ptr byval(%struct.S24) align 8)

define i64 @t(ptr %q) {
entry:
  %r = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @sum)
  %v = call i64 @sum(ptr byval(%struct.S24) align 8 %q)
  store i64 %v, ptr %r
  call void @__ws_spawn_end()
  store i64 99, ptr %q
  call void @__ws_sync()
  %x = load i64, ptr %r
  ret i64 %x
}

; CHECK: %ws.desc.t.0 = type { ptr, i64, %struct.S24, ptr }
; CHECK-LABEL: define i64 @t(
; CHECK:         [[COPY:%.*]] = getelementptr inbounds %ws.desc.t.0, ptr %ws.desc, i32 0, i32 2
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 8 [[COPY]], ptr align 8 %q, i64 24, i1 false)
; CHECK:         call void @__ws_push_thep(
; CHECK-NEXT:    store i64 99, ptr %q
; CHECK:       ws.run:
; CHECK-NEXT:    [[FIELD:%.*]] = getelementptr inbounds %ws.desc.t.0, ptr %ws.desc, i32 0, i32 2
; CHECK-NEXT:    call void @__ws_body.t.0(ptr [[FIELD]], ptr %r)
; CHECK-LABEL: define internal void @__ws_body.t.0(ptr noalias %q, ptr %r)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %v = call i64 @sum(ptr byval(%struct.S24) align 8 %q)
