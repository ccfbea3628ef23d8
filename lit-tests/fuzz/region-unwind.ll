; Found by ws-lower-fuzzer: a landing pad reached from inside a spawn
; region (an invoke among the arguments) is not past the spawn: the task
; is pushed at the end marker.  Counting the spawn as outstanding from the
; begin marker on made a sync or a resume in that pad take back a task
; never pushed, calling its body with arguments not yet computed (invalid
; IR), and stopped a pad shared with code after the spawn from being seen
; as reached both with and without the task.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64)
declare i64 @arg(i64)
declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

; The pad resumes: unwinding leaves before the spawn happened.
define void @resume_in_region(i64 %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @f)
  %a = invoke i64 @arg(i64 %x) to label %call unwind label %lpad
call:
  %v = call i64 @f(i64 %a)
  store i64 %v, ptr %r
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; The pad syncs and rejoins the argument's evaluation (reduced from the
; fuzzer's input).
define void @sync_in_region(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @f)
  br i1 %c, label %join, label %else
else:
  invoke void @may_throw() to label %join unwind label %lpad
join:
  %sel = phi i64 [ 0, %entry ], [ 1, %lpad ], [ 2, %else ]
  %v = call i64 @f(i64 %sel)
  call void @__ws_spawn_end()
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @__ws_sync()
  br label %join
}

; The pad is shared by an invoke inside the region and one after it.
define void @shared_pad(i64 %x) personality ptr @__gxx_personality_v0 {
entry:
  %r = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @f)
  %a = invoke i64 @arg(i64 %x) to label %call unwind label %lpad
call:
  %v = call i64 @f(i64 %a)
  store i64 %v, ptr %r
  call void @__ws_spawn_end()
  invoke void @may_throw() to label %done unwind label %lpad
done:
  call void @__ws_sync()
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define internal void @shared_pad.ws(
; The pad of @shared_pad drains whatever is outstanding: down to the tail
; the function started with.
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad
; CHECK-NEXT:      cleanup
; CHECK-NEXT:    store ptr null, ptr %ws.exn.kept
; CHECK-NEXT:    br label %[[SYNC:ws.sync[0-9]*]]
; CHECK:       [[SYNC]]:
; CHECK-NEXT:    [[TOP:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    icmp eq ptr [[TOP]], %ws.tail
; CHECK-LABEL: define internal void @sync_in_region.ws(
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad
; CHECK-NEXT:      cleanup
; CHECK-NEXT:    br label %join
; CHECK-LABEL: define internal void @resume_in_region.ws(
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad
; CHECK-NEXT:      cleanup
; CHECK-NEXT:    resume
