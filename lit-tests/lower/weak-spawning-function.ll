; Calls of a spawning function that the link may replace (weak, or
; linkonce without ODR) go through its entry point, which the linker
; resolves, not to a clone of this module's definition (they did: a weak
; `pick` returning 1 and a strong one in another file returning 2,
; `caller` spawning pick and calling it, gave 1 + 1 lowered, 2 + 2
; serially).  Such a function is lowered in place and finds its tail at
; entry.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @g()

define weak void @pick() {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  ret void
}

define void @caller() {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @pick)
  call void @pick()
  call void @__ws_spawn_end()
  call void @pick()
  ret void
}

; CHECK-NOT: define {{.*}}@pick.ws(
; CHECK-LABEL: define weak void @pick()
; CHECK:         call ptr @__ws_tail()
; CHECK-LABEL: define internal void @caller.ws(
; CHECK-NOT:     call void @pick.ws(
; CHECK:         {{call|invoke}} void @pick()
; CHECK-LABEL: define internal void @__ws_body.caller.ws.0(
; CHECK-NOT:     call void @pick.ws(
; CHECK:         {{call|invoke}} void @pick()
