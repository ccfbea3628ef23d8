; Spawning through a function pointer: the pointer is one more value the
; task captures in its slot, and the unstolen path makes the same indirect
; call (to whatever function it is, through its entry point: the callee's
; clone is not known here).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()

define i64 @apply(ptr %fn, i64 %x) {
entry:
  %r = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr %fn)
  %v = call i64 %fn(i64 %x)
  store i64 %v, ptr %r
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %y = load i64, ptr %r
  ret i64 %y
}

; CHECK: %ws.task.apply.ws.0 = type { i64, ptr }
; CHECK-LABEL: define internal i64 @apply.ws(ptr %ws.tail, ptr %fn, i64 %x)
; CHECK:         store i64 %x, ptr
; CHECK-NEXT:    [[FIELD:%.*]] = getelementptr inbounds %ws.task.apply.ws.0, ptr {{%.*}}, i32 0, i32 1
; CHECK-NEXT:    store ptr %fn, ptr [[FIELD]]
; CHECK:       ws.run.plain:
; CHECK-NEXT:    [[V:%.*]] = {{call|invoke}} i64 @__ws_body.apply.ws.0(ptr %ws.slot, i64 %x, ptr %fn)
; CHECK-NEXT:    store i64 [[V]], ptr %r
; CHECK-LABEL: define internal i64 @__ws_body.apply.ws.0(ptr %ws.tail, i64 %x, ptr %fn)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %v = call i64 %fn(i64 %x), !ws.sync.call
; CHECK-NEXT:    ret i64 %v
; CHECK-LABEL: define internal void @__ws_thunk.apply.ws.0(ptr %0, ptr %1)
; CHECK:         [[F:%.*]] = load ptr, ptr
; CHECK-NEXT:    {{call|invoke}} i64 @__ws_body.apply.ws.0(ptr %1, i64 {{%.*}}, ptr [[F]])
