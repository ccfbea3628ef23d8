; fib's shape: one spawn, one sync.  Every sync sees the same outstanding
; spawn, so the descriptor is an entry alloca, the worker is looked up
; where the spawn's block starts (not on the leaf path), and the unstolen
; sync calls the body with the spawn's own SSA arguments.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()

define i64 @fib(i64 %n) {
entry:
  %a = alloca i64
  %small = icmp slt i64 %n, 2
  br i1 %small, label %leaf, label %rec
leaf:
  ret i64 %n
rec:
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @fib)
  %n1 = sub i64 %n, 1
  %r = call i64 @fib(i64 %n1)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  %n2 = sub i64 %n, 2
  %b = call i64 @fib(i64 %n2)
  call void @__ws_sync()
  %av = load i64, ptr %a
  %s = add i64 %av, %b
  ret i64 %s
}

; CHECK-LABEL: define i64 @fib(i64 %n)
; CHECK:       entry:
; CHECK-NEXT:    %ws.desc = alloca %ws.desc.fib.0, align 16
; CHECK-NOT:     __ws_self
; CHECK:       rec:
; CHECK-NEXT:    %ws.worker = call ptr @__ws_self()
; CHECK-NEXT:    %n1 = sub i64 %n, 1
; CHECK-NEXT:    [[FN:%.*]] = getelementptr inbounds %ws.desc.fib.0, ptr %ws.desc, i32 0, i32 0
; CHECK-NEXT:    store volatile ptr @__ws_thunk.fib.0, ptr [[FN]], align 8
; CHECK-NEXT:    [[STATE:%.*]] = getelementptr inbounds %ws.desc.fib.0, ptr %ws.desc, i32 0, i32 1
; CHECK-NEXT:    store volatile i64 0, ptr [[STATE]], align 8
; CHECK:         store i64 %n1, ptr
; CHECK:         store ptr %a, ptr
; CHECK-NEXT:    call void @__ws_push_thep(ptr %ws.worker, ptr %ws.desc)
; CHECK:         %b = call i64 @fib(i64 %n2)
; CHECK-NEXT:    %ws.taken = call ptr @__ws_take_thep(ptr %ws.worker), !ws.take
; CHECK:         br i1 %ws.is.stolen, label %ws.stolen, label %ws.run, !prof
; CHECK:       ws.run:
; CHECK-NEXT:    call void @__ws_body.fib.0(i64 %n1, ptr %a)
; CHECK:       ws.stolen:
; CHECK-NEXT:    call void @__ws_join_stolen(ptr %ws.worker, ptr %ws.desc)
; CHECK:       ws.synced:
; CHECK-NEXT:    %av = load i64, ptr %a

; The task: the call and the store of its result, nothing of the parent.
; CHECK-LABEL: define internal void @__ws_body.fib.0(i64 %n1, ptr %a)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %r = call i64 @fib(i64 %n1)
; CHECK-NEXT:    store i64 %r, ptr %a
; CHECK-NEXT:    ret void

; What a thief runs: the live-ins come back out of the descriptor.
; CHECK-LABEL: define internal void @__ws_thunk.fib.0(ptr %0)
; CHECK:         load i64, ptr
; CHECK:         load ptr, ptr
; CHECK:         call void @__ws_body.fib.0(
