; Several spawns before one sync: the sync takes them back most recent first,
; each with its own descriptor.  A constant argument is not captured.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64)
declare void @g(i32)
define i64 @two(i64 %x) {
entry:
  %a = alloca i64
  %b = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %ra = call i64 @f(i64 %x)
  store i64 %ra, ptr %a
  call void @__ws_spawn_end()
  call void (ptr, ...) @__ws_spawn_begin(ptr %b, ptr @f)
  %y = add i64 %x, 1
  %rb = call i64 @f(i64 %y)
  store i64 %rb, ptr %b
  call void @__ws_spawn_end()
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g(i32 7)
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %va = load i64, ptr %a
  %vb = load i64, ptr %b
  %s = add i64 %va, %vb
  ret i64 %s
}

; CHECK-LABEL: define i64 @two(
; CHECK:         call void @__ws_push_thep(ptr %ws.worker, ptr %ws.desc)
; CHECK:         call void @__ws_push_thep(ptr %ws.worker, ptr %ws.desc1)
; CHECK:         call void @__ws_push_thep(ptr %ws.worker, ptr %ws.desc2)
; CHECK:         call ptr @__ws_take_thep(ptr %ws.worker), !ws.take
; CHECK:         call void @__ws_body.two.2()
; CHECK:         call void @__ws_join_stolen(ptr %ws.worker, ptr %ws.desc2)
; CHECK:         call ptr @__ws_take_thep(ptr %ws.worker), !ws.take
; CHECK:         call void @__ws_body.two.1(i64 %y, ptr %b)
; CHECK:         call void @__ws_join_stolen(ptr %ws.worker, ptr %ws.desc1)
; CHECK:         call ptr @__ws_take_thep(ptr %ws.worker), !ws.take
; CHECK:         call void @__ws_body.two.0(i64 %x, ptr %a)
; CHECK:         call void @__ws_join_stolen(ptr %ws.worker, ptr %ws.desc)
; CHECK:         %va = load i64, ptr %a
; CHECK-LABEL: define internal void @__ws_body.two.2()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @g(i32 7)
