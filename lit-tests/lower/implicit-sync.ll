; A function that spawns syncs before it returns, on every return path that
; can have a spawn outstanding (taking back the slot below the tail, and
; storing the value result there); a return before any spawn stays as it
; was.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64)

define i64 @early(i64 %n, ptr %out) {
entry:
  %neg = icmp slt i64 %n, 0
  br i1 %neg, label %bail, label %go
bail:
  ret i64 -1
go:
  call void (ptr, ...) @__ws_spawn_begin(ptr %out, ptr @f)
  %r = call i64 @f(i64 %n)
  store i64 %r, ptr %out
  call void @__ws_spawn_end()
  %big = icmp sgt i64 %n, 5
  br i1 %big, label %one, label %two
one:
  ret i64 1
two:
  ret i64 2
}

; CHECK-LABEL: define internal i64 @early.ws(ptr %ws.tail, i64 %n, ptr %out)
; CHECK:       bail:
; CHECK-NEXT:    ret i64 -1
; CHECK:       one:
; CHECK-NEXT:    [[T1:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    [[S1:%.*]] = getelementptr inbounds i8, ptr [[T1]], i64 -64
; CHECK-NEXT:    store ptr [[S1]], ptr %ws.tail.addr
; CHECK-NEXT:    call i32 @__ws_take_ffmb(ptr [[S1]]), !ws.take
; CHECK:         [[R1:%.*]] = call i64 @__ws_body.early.ws.0(ptr [[S1]], i64 %n)
; CHECK-NEXT:    store i64 [[R1]], ptr %out
; CHECK:         {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr [[S1]])
; CHECK:         store i64 {{.*}}, ptr %out
; CHECK:         ret i64 1
; CHECK:       two:
; CHECK-NEXT:    [[T2:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    [[S2:%.*]] = getelementptr inbounds i8, ptr [[T2]], i64 -64
; CHECK-NEXT:    store ptr [[S2]], ptr %ws.tail.addr
; CHECK-NEXT:    call i32 @__ws_take_ffmb(ptr [[S2]]), !ws.take
; CHECK:         [[R2:%.*]] = call i64 @__ws_body.early.ws.0(ptr [[S2]], i64 %n)
; CHECK-NEXT:    store i64 [[R2]], ptr %out
; CHECK:         {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr [[S2]])
; CHECK:         ret i64 2
