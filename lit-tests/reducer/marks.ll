; ws-lower marks a sync's direct call of a task body for the reducer views
; only in functions that may reach a reducer: those that call code the
; module cannot see (a declaration that is not a library function, an
; indirect call) or such a function.  There __ws_views_above chooses
; between the plain call and a copy between __ws_child_begin and
; __ws_child_end.  fib calls only itself and keeps its sync as it was.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare ptr @ws_reducer_view(ptr) nounwind
declare i64 @labs(i64) nounwind

define i64 @fib(i64 %n) nounwind {
entry:
  %a = alloca i64
  %small = icmp slt i64 %n, 2
  br i1 %small, label %leaf, label %rec
leaf:
  ret i64 %n
rec:
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @fib)
  %n1 = sub i64 %n, 1
  %r = call i64 @fib(i64 %n1)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  %n2 = sub i64 %n, 2
  %b = call i64 @fib(i64 %n2)
  call void @__ws_sync()
  %av = load i64, ptr %a
  %s = add i64 %av, %b
  %abs = call i64 @labs(i64 %s)
  ret i64 %abs
}

; A leaf that updates a reducer: its callers may reach one.
define void @leaf(ptr %r, i64 %x) nounwind {
  %v = call ptr @ws_reducer_view(ptr %r)
  %old = load i64, ptr %v
  %new = add i64 %old, %x
  store i64 %new, ptr %v
  ret void
}

define void @tree(ptr %r, i64 %n) nounwind {
entry:
  %small = icmp slt i64 %n, 2
  br i1 %small, label %base, label %rec
base:
  call void @leaf(ptr %r, i64 %n)
  ret void
rec:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @tree)
  %n1 = sub i64 %n, 1
  call void @tree(ptr %r, i64 %n1)
  call void @__ws_spawn_end()
  %n2 = sub i64 %n, 2
  call void @tree(ptr %r, i64 %n2)
  call void @__ws_sync()
  ret void
}

; Spawns a pure child, but calls through a pointer: it may reach one.
define void @indirect(ptr %f, i64 %n) nounwind {
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @fib)
  %r = call i64 @fib(i64 %n)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void %f()
  call void @__ws_sync()
  ret void
}

; A child that may throw (C++): two tasks at the sync, so what the marked
; copy catches is kept for after the sync, once __ws_child_end has put the
; continuation's updates back; the plain copy's pad only keeps it.
declare void @may_throw(ptr)

define void @throwing(ptr %r) personality ptr @__gxx_personality_v0 {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @may_throw)
  call void @may_throw(ptr %r)
  call void @__ws_spawn_end()
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @may_throw)
  call void @may_throw(ptr %r)
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define internal void @throwing.ws(
; CHECK:       ws.run.views:
; CHECK-NEXT:    [[ASIDE:%ws.aside[0-9]*]] = call ptr @__ws_child_begin(ptr %ws.slot)
; CHECK-NEXT:    invoke void @__ws_body.throwing.ws.1(ptr %ws.slot, ptr %r)
; CHECK-NEXT:      to label %[[RAN:.*]] unwind label %[[PAD:.*]]
; CHECK:       [[RAN]]:
; CHECK-NEXT:    call void @__ws_child_end(ptr [[ASIDE]])
; CHECK:       [[PAD]]:
; CHECK-NEXT:    [[LP:%.*]] = landingpad
; CHECK-NEXT:      catch ptr null
; CHECK:         [[EXN:%.*]] = call ptr @__ws_exception_capture(
; CHECK-NEXT:    call void @__ws_child_end(ptr [[ASIDE]])
; CHECK:         call void @__ws_exception_drop(
; CHECK-NEXT:    store ptr [[EXN]], ptr %ws.exn.kept
; CHECK-NEXT:    br label %ws.synced

; CHECK-LABEL: define internal void @indirect.ws(
; CHECK:       ws.run:
; CHECK-NEXT:    %ws.views.above = call i32 @__ws_views_above(ptr %ws.slot)
; CHECK-NEXT:    [[ABOVE:%.*]] = icmp ne i32 %ws.views.above, 0
; CHECK-NEXT:    br i1 [[ABOVE]], label %ws.run.views, label %ws.run.plain
; CHECK:       ws.run.plain:
; CHECK-NEXT:    call i64 @__ws_body.indirect.ws.0(ptr %ws.slot,
; CHECK:       ws.run.views:
; CHECK-NEXT:    %ws.aside = call ptr @__ws_child_begin(ptr %ws.slot)
; CHECK-NEXT:    call i64 @__ws_body.indirect.ws.0(ptr %ws.slot,
; CHECK-NEXT:    store i64
; CHECK-NEXT:    call void @__ws_child_end(ptr %ws.aside)

; CHECK-LABEL: define internal void @tree.ws(
; CHECK:       ws.run:
; CHECK-NEXT:    %ws.views.above = call i32 @__ws_views_above(ptr %ws.slot)
; CHECK:       ws.run.plain:
; CHECK-NEXT:    call void @__ws_body.tree.ws.0(ptr %ws.slot, ptr %r, i64 %n1)
; CHECK-NEXT:    br label %ws.ran
; CHECK:       ws.run.views:
; CHECK-NEXT:    %ws.aside = call ptr @__ws_child_begin(ptr %ws.slot)
; CHECK-NEXT:    call void @__ws_body.tree.ws.0(ptr %ws.slot, ptr %r, i64 %n1)
; CHECK-NEXT:    call void @__ws_child_end(ptr %ws.aside)
; CHECK-NEXT:    br label %ws.ran
; CHECK:       ws.join:
; CHECK-NEXT:    %ws.exn.stolen = call ptr @__ws_join(ptr %ws.slot)

; CHECK-LABEL: define internal i64 @fib.ws(
; CHECK-NOT:     __ws_views_above
; CHECK-NOT:     __ws_child_
; CHECK:       ws.run:
; CHECK-NEXT:    call i64 @__ws_body.fib.ws.0(
; CHECK-NOT:     __ws_child_
; CHECK:       ret i64
