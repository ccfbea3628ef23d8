; A function that spawns syncs before it returns, on every return path that
; can have a spawn outstanding; a return before any spawn stays as it was.
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

; CHECK-LABEL: define i64 @early(
; CHECK:       bail:
; CHECK-NEXT:    ret i64 -1
; CHECK:       one:
; CHECK-NEXT:    call ptr @__ws_take_thep
; CHECK:         call void @__ws_body.early.0(i64 %n, ptr %out)
; CHECK:         call void @__ws_join_stolen
; CHECK:         ret i64 1
; CHECK:       two:
; CHECK-NEXT:    call ptr @__ws_take_thep
; CHECK:         call void @__ws_body.early.0(i64 %n, ptr %out)
; CHECK:         ret i64 2
