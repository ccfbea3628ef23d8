; C++: calls in a spawn may be invokes.  The spawned call cannot unwind into
; the parent's handler (it may run on another worker), so it becomes a call;
; the parent syncs before it resumes unwinding, because its frame (and the
; descriptors in it) is about to go.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64)
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

define i64 @t(i64 %x) personality ptr @__gxx_personality_v0 {
entry:
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %r = invoke i64 @f(i64 %x) to label %cont unwind label %lpad
cont:
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  invoke void @may_throw() to label %ok unwind label %lpad
ok:
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define i64 @t(
; CHECK:         call void @__ws_push_thep(
; CHECK:         invoke void @may_throw()
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad
; CHECK:         call ptr @__ws_take_thep(
; CHECK:         resume { ptr, i32 } %lp
; CHECK-LABEL: define internal void @__ws_body.t.0(i64 %x, ptr %a)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %r = call i64 @f(i64 %x)
