; Live-ins that do not fit in the 48-byte payload, or that need more than
; its 16-byte alignment, go to a frame descriptor in the spawning frame and
; the payload holds a pointer to it (byval copies: byval-arg.ll).  In a
; function whose syncs know their spawns the descriptor is an entry alloca
; (in a loop, one spawn at a time uses it), with no stack save; the sync's
; direct call still passes the live-ins as SSA values, only the thief reads
; the descriptor.  The descriptor is as aligned as its fields need (32 for
; an <8 x i32>; before issue 33 always 16).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @g7(i64, i64, i64, i64, i64, i64, i64)
declare void @v8(<8 x i32>)

define void @t(i64 %n, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, <8 x i32> %v) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g7)
  call void @g7(i64 %i, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %n)
  call void @__ws_spawn_end()
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @v8)
  call void @v8(<8 x i32> %v)
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; CHECK-DAG: %ws.task.t.ws.0 = type { i64, i64, i64, i64, i64, i64, i64 }
; CHECK-DAG: %ws.task.t.ws.1 = type { <8 x i32> }
; CHECK-LABEL: define internal void @t.ws(
; CHECK-NEXT:  entry:
; CHECK-DAG:     [[F0:%ws.frame[0-9]*]] = alloca %ws.task.t.ws.0, align 16
; CHECK-DAG:     [[F1:%ws.frame[0-9]*]] = alloca %ws.task.t.ws.1, align 32
; CHECK-NOT:     stacksave
; CHECK:       loop:
; CHECK:         [[S0:%ws.tail[0-9]+]] = load ptr, ptr %ws.tail.addr
; CHECK:         [[P0:%.*]] = getelementptr inbounds i8, ptr [[S0]], i64 16
; CHECK-NEXT:    store ptr [[F0]], ptr [[P0]]
; CHECK-NEXT:    [[A0:%.*]] = getelementptr inbounds %ws.task.t.ws.0, ptr [[F0]], i32 0, i32 0
; CHECK-NEXT:    store i64 %i, ptr [[A0]]
; CHECK:         call void @__ws_push_ffmb(ptr [[S0]])
; CHECK:         [[S1:%ws.tail[0-9]+]] = load ptr, ptr %ws.tail.addr
; CHECK:         [[P1:%.*]] = getelementptr inbounds i8, ptr [[S1]], i64 16
; CHECK-NEXT:    store ptr [[F1]], ptr [[P1]]
; CHECK-NEXT:    [[A1:%.*]] = getelementptr inbounds %ws.task.t.ws.1, ptr [[F1]], i32 0, i32 0
; CHECK-NEXT:    store <8 x i32> %v, ptr [[A1]]
; CHECK:         call void @__ws_push_ffmb(ptr [[S1]])
; CHECK:         {{call|invoke}} void @__ws_body.t.ws.1(ptr %ws.slot, <8 x i32> %v)
; CHECK:         {{call|invoke}} void @__ws_body.t.ws.0(ptr {{%ws.slot[0-9]+}}, i64 %i, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %n)
; CHECK-NOT:     stackrestore
; CHECK:         ret void
; CHECK-LABEL: define internal void @__ws_thunk.t.ws.0(ptr %0, ptr %1)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[TP:%.*]] = getelementptr inbounds i8, ptr %0, i64 16
; CHECK-NEXT:    %ws.frame = load ptr, ptr [[TP]]
; CHECK-NEXT:    getelementptr inbounds %ws.task.t.ws.0, ptr %ws.frame, i32 0, i32 0
