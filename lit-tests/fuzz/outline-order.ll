; Found by ws-lower-fuzzer: outlining a spawn erased its instructions from
; the parent before the next spawn was looked at, so what the next one
; saw depended on the order.  An alloca passed to two spawns looked, at
; the second, like a temporary of that spawn alone and went into its task,
; while the first still captured it (a use after free; opt stored a stale
; pointer into the descriptor).  A spawn using the result of a spawn laid
; out after it was not reported and read the freed result.  Now every
; spawn is outlined before any task leaves the parent.
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %t/shared-alloca.ll | FileCheck %s
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -disable-output %t/result-used.ll 2>&1 | FileCheck %s --check-prefix=USED

; Both tasks capture the parent's %a in their slots.
; CHECK-LABEL: define internal void @shared.ws(
; CHECK:         %a = alloca i64
; CHECK:         store ptr %a, ptr
; CHECK:         call void @__ws_push_ffmb(
; CHECK:         store ptr %a, ptr
; CHECK:         call void @__ws_push_ffmb(

; USED: error: {{.*}}ws_spawn: the result of the spawned call is used outside the spawn before ws_sync

;--- shared-alloca.ll
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @f(ptr)

define void @shared() {
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @f)
  call void @f(ptr %a)
  call void @__ws_spawn_end()
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @f)
  call void @f(ptr %a)
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}

;--- result-used.ll
; The spawn in %first runs second, on the result of the one in %second.
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f()
declare void @use(i64)

define void @t() {
entry:
  br label %second
first:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @use)
  call void @use(i64 %r)
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
second:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @f)
  %r = call i64 @f()
  call void @__ws_spawn_end()
  br label %first
}
