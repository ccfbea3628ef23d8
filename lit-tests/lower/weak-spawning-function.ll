; XFAIL: *
; BUG: calls of a spawning function that the link may replace (weak, or
; linkonce without ODR) are bound to the clone of this module's definition.
; ws-lower redirects every call of a spawning function made from spawning
; code, and the spawned call itself, to its internal clone <name>.ws; for an
; interposable definition the program then runs the module's default even
; when another object defines the function.  Reproduced with ws-clang -O2:
; a weak `pick` returning 1 and a strong one in another file returning 2,
; `caller` spawning pick and calling it: 2 + 2 = 4 serially, 1 + 1 = 2
; lowered.
; Expected: calls of an interposable spawning function go through its
; entry point (which the linker resolves), not to the clone.
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

; CHECK-LABEL: define internal void @caller.ws(
; CHECK-NOT:     call void @pick.ws(
; CHECK:         call void @pick()
; CHECK-LABEL: define internal void @__ws_body.caller.ws.0(
; CHECK-NOT:     call void @pick.ws(
; CHECK:         call void @pick()
