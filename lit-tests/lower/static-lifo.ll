; Several spawns before one sync: each takes the next slot up from the
; tail, and the sync takes them back most recent first, each from its own
; slot, running the unstolen body on that slot.  A constant argument is not
; captured (the third task's payload stays empty).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s
; With the tail in registers the slots are plain offsets from the entry
; tail: pushes at +0, +64, +128; takes at +128, +64, +0.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,function(mem2reg,instcombine)' -S %s | FileCheck %s --check-prefix=SLOTS

; Nothing here unwinds, as in C: the exception paths are checked by
; invoke-resume.ll and language/exceptions.cpp.
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64) nounwind
declare void @g(i32) nounwind
define i64 @two(i64 %x) nounwind {
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

; CHECK-LABEL: define internal i64 @two.ws(
; CHECK:         store volatile ptr @__ws_thunk.two.ws.0, ptr [[S0:%.*]], align 64
; CHECK-NEXT:    call void @__ws_push_ffmb(ptr [[S0]])
; CHECK:         store volatile ptr @__ws_thunk.two.ws.1, ptr [[S1:%.*]], align 64
; CHECK-NEXT:    call void @__ws_push_ffmb(ptr [[S1]])
; CHECK:         store volatile ptr @__ws_thunk.two.ws.2, ptr [[S2:%.*]], align 64
; CHECK-NEXT:    call void @__ws_push_ffmb(ptr [[S2]])
; CHECK:         call i32 @__ws_take_ffmb(ptr %ws.slot), !ws.take
; CHECK:         call void @__ws_body.two.ws.2(ptr %ws.slot)
; CHECK:         {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr %ws.slot)
; CHECK:         call i32 @__ws_take_ffmb(ptr [[T1:%ws.slot[0-9]+]]), !ws.take
; CHECK:         [[RB:%.*]] = call i64 @__ws_body.two.ws.1(ptr [[T1]], i64 %y)
; CHECK-NEXT:    store i64 [[RB]], ptr %b
; CHECK:         {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr [[T1]])
; CHECK:         call i32 @__ws_take_ffmb(ptr [[T0:%ws.slot[0-9]+]]), !ws.take
; CHECK:         [[RA:%.*]] = call i64 @__ws_body.two.ws.0(ptr [[T0]], i64 %x)
; CHECK-NEXT:    store i64 [[RA]], ptr %a
; CHECK:         {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr [[T0]])
; CHECK:         %va = load i64, ptr %a
; CHECK-LABEL: define internal void @__ws_body.two.ws.2(ptr %ws.tail)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @g(i32 7)
; CHECK-LABEL: define internal void @__ws_thunk.two.ws.2(
; CHECK-NOT:     = load
; CHECK:         call void @__ws_body.two.ws.2(ptr %1)
; CHECK-NEXT:    ret void

; SLOTS-LABEL: define internal i64 @two.ws(ptr %ws.tail, i64 %x)
; SLOTS:         [[P1:%.*]] = getelementptr inbounds i8, ptr %ws.tail, i64 64
; SLOTS:         call void @__ws_push_ffmb(ptr nonnull %ws.tail)
; SLOTS:         [[P2:%.*]] = getelementptr inbounds i8, ptr %ws.tail, i64 128
; SLOTS:         call void @__ws_push_ffmb(ptr nonnull [[P1]])
; SLOTS:         call void @__ws_push_ffmb(ptr nonnull [[P2]])
; SLOTS:         %ws.slot = getelementptr inbounds i8, ptr %ws.tail, i64 128
; SLOTS-NEXT:    call i32 @__ws_take_ffmb(ptr nonnull %ws.slot)
; SLOTS:         [[T1:%.*]] = getelementptr inbounds i8, ptr %ws.tail, i64 64
; SLOTS-NEXT:    call i32 @__ws_take_ffmb(ptr nonnull [[T1]])
; SLOTS:         call i32 @__ws_take_ffmb(ptr nonnull %ws.tail)
; SLOTS:         call i64 @__ws_body.two.ws.0(ptr nonnull %ws.tail, i64 %x)
