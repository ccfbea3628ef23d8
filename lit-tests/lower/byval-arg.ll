; A struct passed byval is copied at the spawn, as the call would have
; copied it: the parent may change its variable before the task runs.  The
; copy goes to a frame descriptor in the spawning frame, not to the slot
; (the slot is reused by the task's own spawns while the callee may still
; read its copy), and the slot's payload points to the descriptor.  Both the
; thief's and the direct call pass the copy.
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

; CHECK: %ws.task.t.ws.0 = type { %struct.S24 }
; CHECK-LABEL: define internal i64 @t.ws(ptr %ws.tail, ptr %q)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %ws.frame = alloca %ws.task.t.ws.0, align 16
; CHECK:         [[SLOT:%ws.tail[0-9]+]] = load ptr, ptr %ws.tail.addr
; CHECK:         [[PAYLOAD:%.*]] = getelementptr inbounds i8, ptr [[SLOT]], i64 16
; CHECK-NEXT:    store ptr %ws.frame, ptr [[PAYLOAD]]
; CHECK-NEXT:    [[COPY:%.*]] = getelementptr inbounds %ws.task.t.ws.0, ptr %ws.frame, i32 0, i32 0
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 8 [[COPY]], ptr align 8 %q, i64 24, i1 false)
; CHECK-NEXT:    store volatile ptr @__ws_thunk.t.ws.0, ptr [[SLOT]], align 64
; CHECK-NEXT:    call void @__ws_push_ffmb(ptr [[SLOT]])
; CHECK-NEXT:    store i64 99, ptr %q
; CHECK:       ws.run.plain:
; CHECK-NEXT:    [[FIELD:%.*]] = getelementptr inbounds %ws.task.t.ws.0, ptr %ws.frame, i32 0, i32 0
; CHECK-NEXT:    [[V:%.*]] = {{call|invoke}} i64 @__ws_body.t.ws.0(ptr %ws.slot, ptr [[FIELD]])
; CHECK-NEXT:    store i64 [[V]], ptr %r
; CHECK:       ws.join:
; CHECK-NEXT:    {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr %ws.slot)
; CHECK:    [[P:%.*]] = getelementptr inbounds i8, ptr %ws.slot, i64 16
; CHECK-NEXT:    %ws.stolen.result = load i64, ptr [[P]]
; CHECK-NEXT:    store i64 %ws.stolen.result, ptr %r
; CHECK-LABEL: define internal i64 @__ws_body.t.ws.0(ptr %ws.tail, ptr noalias %q)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %v = call i64 @sum(ptr byval(%struct.S24) align 8 %q), !ws.sync.call
; CHECK-NEXT:    ret i64 %v
; CHECK-LABEL: define internal void @__ws_thunk.t.ws.0(ptr %0, ptr %1)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[TP:%.*]] = getelementptr inbounds i8, ptr %0, i64 16
; CHECK-NEXT:    %ws.frame = load ptr, ptr [[TP]]
; CHECK-NEXT:    [[TF:%.*]] = getelementptr inbounds %ws.task.t.ws.0, ptr %ws.frame, i32 0, i32 0
; CHECK-NEXT:    [[TV:%.*]] = {{call|invoke}} i64 @__ws_body.t.ws.0(ptr %1, ptr [[TF]])
