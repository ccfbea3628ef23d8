; What ws-scale cannot measure it says, and leaves the program as it was
; there: a spawned call with operand bundles (the wrapper would drop them)
; is not wrapped, and a function that returns through a musttail call
; (nothing may run between the call and the ret) is not instrumented.
; RUN: %opt -load-pass-plugin=%plugin -passes=ws-scale -S %s -o - 2> %t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64)

define i64 @bundled(i64 %x) {
entry:
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %r = call i64 @f(i64 %x) [ "deopt"() ]
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
}

define i64 @tail(i64 %x) {
entry:
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %r = call i64 @f(i64 %x)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %t = musttail call i64 @f(i64 %x)
  ret i64 %t
}

; CHECK-LABEL: define i64 @bundled(
; CHECK:         %ws.scale.frame = call ptr @__ws_scale_enter()
; CHECK:         call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
; CHECK-NEXT:    %r = call i64 @f(i64 %x) [ "deopt"() ]
; CHECK-LABEL: define i64 @tail(
; CHECK-NOT:     ws_scale
; CHECK:         ret i64 %t

; WARN-DAG: warning: <unknown>:0:0: ws-scale: not measuring tail: it returns through a musttail call, so nothing can run at its exit
; WARN-DAG: warning: <unknown>:0:0: ws-scale: cannot measure this spawn (the spawned call has operand bundles): its child's work is missing from the figures
