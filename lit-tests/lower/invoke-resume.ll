; C++: calls in a spawn may be invokes.  The spawned call cannot unwind into
; the parent's handler (it may run on another worker), so it becomes a call;
; the parent syncs before it resumes unwinding (takes back the slot and
; stores the value result), because the task's slot is below the tail the
; caller will use again and its result is the parent's.
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

; CHECK-LABEL: define internal i64 @t.ws(ptr %ws.tail, i64 %x)
; CHECK:         call void @__ws_push_ffmb(
; CHECK-NEXT:    invoke void @may_throw()
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad
; CHECK-NEXT:      cleanup
; CHECK-NEXT:    store ptr null, ptr %ws.exn.kept
; CHECK-NEXT:    [[T:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    %ws.slot = getelementptr inbounds i8, ptr [[T]], i64 -64
; CHECK-NEXT:    store ptr %ws.slot, ptr %ws.tail.addr
; CHECK-NEXT:    call i32 @__ws_take_ffmb(ptr %ws.slot), !ws.take
; CHECK:         [[R:%.*]] = {{call|invoke}} i64 @__ws_body.t.ws.0(ptr %ws.slot, i64 %x)
; CHECK-DAG:    store i64 [[R]], ptr %a
; CHECK-DAG:     {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr %ws.slot)
; CHECK:         store i64 %ws.stolen.result, ptr %a
; CHECK:       ws.synced:
; CHECK:         resume { ptr, i32 } %lp
; CHECK-LABEL: define internal i64 @__ws_body.t.ws.0(ptr %ws.tail, i64 %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %r = call i64 @f(i64 %x), !ws.sync.call
; CHECK-NEXT:    ret i64 %r
