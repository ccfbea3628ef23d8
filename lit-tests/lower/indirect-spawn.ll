; Spawning through a function pointer: the pointer is one more value the
; task captures, and the unstolen path makes the same indirect call.
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

; CHECK: %ws.desc.apply.0 = type { ptr, i64, i64, ptr, ptr }
; CHECK-LABEL: define internal void @__ws_body.apply.0(i64 %x, ptr %fn, ptr %r)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %v = call i64 %fn(i64 %x)
