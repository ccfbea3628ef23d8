; The wrapper forwards the spawned call exactly: a spawn through a pointer
; passes the pointer to it (and the marker names the wrapper, a direct
; spawn), a struct argument stays byval, an sret result passes through, a
; variadic call keeps its own argument list, an invoke stays an invoke, and
; every exit (ret and resume) syncs and leaves.  ws-lower takes it all.
; RUN: %opt -load-pass-plugin=%plugin -passes=ws-scale -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-scale,ws-lower<abi-bc=none>' -S %s | FileCheck %s --check-prefix=LOWERED --implicit-check-not='call void (ptr, ...) @__ws_spawn_begin'

%struct.S24 = type { i64, i64, i64 }

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @sum(ptr byval(%struct.S24) align 8)
declare void @mk(ptr sret(%struct.S24) align 8, i64)
declare i32 @vsum(i32, ...)
declare i64 @f(i64)
declare i32 @__gxx_personality_v0(...)

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
; CHECK-LABEL: define i64 @apply(
; CHECK:         call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @indirect.ws.scale)
; CHECK-NEXT:    %v = call i64 @indirect.ws.scale(i64 %x, ptr %fn, ptr %ws.scale.spawner, i64 %ws.scale.span, i64 %ws.scale.bspan, i64 %ws.scale.tspan, i64 %ws.scale.tbspan)

define i64 @byval(ptr %q, ptr %out, i64 %x) {
entry:
  %r = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @sum)
  %v = call i64 @sum(ptr byval(%struct.S24) align 8 %q)
  store i64 %v, ptr %r
  call void @__ws_spawn_end()
  call void (ptr, ...) @__ws_spawn_begin(ptr %out, ptr @mk)
  call void @mk(ptr sret(%struct.S24) align 8 %out, i64 %x)
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %y = load i64, ptr %r
  ret i64 %y
}
; CHECK-LABEL: define i64 @byval(
; CHECK:         %v = call i64 @sum.ws.scale(ptr byval(%struct.S24) align 8 %q, ptr
; CHECK:         call void @mk.ws.scale(ptr sret(%struct.S24) align 8 %out, i64 %x, ptr

define i32 @variadic(i32 %n) {
entry:
  %r = alloca i32
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @vsum)
  %v = call i32 (i32, ...) @vsum(i32 %n, i64 7, double 1.0)
  store i32 %v, ptr %r
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %y = load i32, ptr %r
  ret i32 %y
}
; CHECK-LABEL: define i32 @variadic(
; CHECK:         %v = call i32 @vsum.ws.scale(i32 %n, i64 7, double 1.000000e+00, ptr

; A spawned invoke becomes a call: an exception of a task comes out at the
; sync.  The landing pad keeps its implicit sync.
define i64 @invoked(i64 %x) personality ptr @__gxx_personality_v0 {
entry:
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %r = invoke i64 @f(i64 %x) to label %cont unwind label %lpad
cont:
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
; CHECK-LABEL: define i64 @invoked(
; CHECK:         %r = call i64 @f.ws.scale(i64 %x, ptr %ws.scale.spawner, i64 %ws.scale.span, i64 %ws.scale.bspan, i64 %ws.scale.tspan, i64 %ws.scale.tbspan)
; CHECK:       lpad:
; CHECK-NEXT:    %lp = landingpad
; CHECK-NEXT:            cleanup
; CHECK-NEXT:    call void @__ws_scale_sync_begin()
; CHECK-NEXT:    call void @__ws_sync()
; CHECK-NEXT:    call void @__ws_scale_leave(ptr %ws.scale.frame)
; CHECK-NEXT:    resume

; The wrappers, last spawn first.
; CHECK-LABEL: define internal i64 @f.ws.scale(
; CHECK-SAME:    i64 %0, ptr %1, i64 %2, i64 %3, i64 %4, i64 %5)
; CHECK-LABEL: define internal i32 @vsum.ws.scale(
; CHECK-SAME:    i32 %0, i64 %1, double %2, ptr %3, i64 %4, i64 %5, i64 %6, i64 %7)
; CHECK:         call i32 (i32, ...) @vsum(i32 %0, i64 %1, double %2)
; CHECK-LABEL: define internal void @mk.ws.scale(
; CHECK-SAME:    ptr sret(%struct.S24) align 8 %0, i64 %1, ptr %2, i64 %3, i64 %4, i64 %5, i64 %6)
; CHECK:         call void @mk(ptr sret(%struct.S24) align 8 %0, i64 %1)
; CHECK-LABEL: define internal i64 @sum.ws.scale(
; CHECK-SAME:    ptr byval(%struct.S24) align 8 %0, ptr %1, i64 %2, i64 %3, i64 %4, i64 %5)
; CHECK:         call i64 @sum(ptr byval(%struct.S24) align 8 %0)
; CHECK-LABEL: define internal i64 @indirect.ws.scale(
; CHECK-SAME:    i64 %0, ptr %1, ptr %2, i64 %3, i64 %4, i64 %5, i64 %6)
; CHECK:         call i64 %1(i64 %0)

; ws-lower takes every one of them: no marker is left, and the tasks call
; the wrappers with what the spawns passed.
; LOWERED-DAG: call i64 @indirect.ws.scale(i64 %x, ptr %fn, ptr
; LOWERED-DAG: call i64 @sum.ws.scale(ptr byval(%struct.S24) align 8 %q, ptr
; LOWERED-DAG: call void @mk.ws.scale(ptr sret(%struct.S24) align 8 %out, i64 %x, ptr
; LOWERED-DAG: call i32 @vsum.ws.scale(i32 %n, i64 7, double 1.000000e+00, ptr
; LOWERED-DAG: call i64 @f.ws.scale(i64 %x, ptr
