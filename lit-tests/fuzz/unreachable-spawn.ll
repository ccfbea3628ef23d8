; Found by ws-lower-fuzzer: a spawn in a block no path reaches crashed the
; lowering (the worker was looked up at the nearest common dominator of the
; spawns, and an unreachable block has none).  Such a block may be dead
; from the start, or become dead when the lowering turns the invoke of a
; spawned call into a call and its landing pad loses its only predecessor.
; Now the tail comes in as the clone's argument and no dominator is looked
; for; the functions still lower to valid IR, their live spawns pushed and
; taken back.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @g()
declare i16 @h()
declare i32 @__gxx_personality_v0(...)

define void @dead_only() {
entry:
  ret void
dead:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  ret void
}

define void @live_and_dead() {
entry:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
dead:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  br label %dead
}

define void @spawn_in_pad() personality ptr @__gxx_personality_v0 {
entry:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  invoke void @g() to label %cont unwind label %lpad
cont:
  call void @__ws_spawn_end()
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @h)
  %r = call i16 @h()
  call void @__ws_spawn_end()
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define void @dead_only()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %ws.closure = alloca { ptr }
; CHECK-NEXT:    %ws.tail = call ptr @__ws_tail()
; CHECK:       ws.run:
; CHECK-NEXT:    call void @dead_only.ws(ptr %ws.tail)
; CHECK-LABEL: define internal void @spawn_in_pad.ws(ptr %ws.tail)
; CHECK:         call void @__ws_push_ffmb(ptr
; CHECK:         %ws.slot = getelementptr inbounds i8, ptr {{%.*}}, i64 -64
; CHECK:         call i32 @__ws_take_ffmb(ptr %ws.slot)
; CHECK:       lpad:
; CHECK-LABEL: define internal void @live_and_dead.ws(ptr %ws.tail)
; CHECK:         call void @__ws_push_ffmb(ptr
; CHECK:         call i32 @__ws_take_ffmb(ptr %ws.slot)
; CHECK:       dead:
; CHECK-LABEL: define internal void @dead_only.ws(ptr %ws.tail)
; CHECK-NOT:   __ws_take
; CHECK:       dead:
; CHECK:         call void @__ws_push_ffmb(ptr
; CHECK-NOT:   __ws_spawn_begin
