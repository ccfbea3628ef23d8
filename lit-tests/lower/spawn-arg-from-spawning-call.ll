; A spawn whose argument is the result of a call of another spawning
; function of the module, made in the parent before the spawn (C:
; ws_spawn(a, f, g(x)) with g spawning).  outlineSpawn records the call as
; a live-in; redirectCalls then replaces it by a call of g's clone.  The
; payload store and the sync's direct call must use the new call's value
; (they used the erased one: opt's verifier caught it, and ws-clang built a
; program that read garbage; found by ws-lower-fuzzer).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64)

define i64 @g(i64 %x) {
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %r = call i64 @f(i64 %x)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
}

define i64 @t(i64 %x) {
  %a = alloca i64
  %y = call i64 @g(i64 %x)
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %r = call i64 @f(i64 %y)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
}

; CHECK-LABEL: define internal i64 @t.ws(ptr %ws.tail, i64 %x)
; CHECK:         %y = call i64 @g.ws(ptr {{%.*}}, i64 %x)
; CHECK:         store i64 %y, ptr
; CHECK:         call void @__ws_push_ffmb(
; CHECK:         call i64 @__ws_body.t.ws.0(ptr %ws.slot, i64 %y)
