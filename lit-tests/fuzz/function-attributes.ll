; Seen while fuzzing (reading what the outlining copies): a spawning
; function declared pure (clang's memory(none) for __attribute__((const)),
; or inferred) kept memory(none), nosync, nofree and norecurse after the
; lowering had added pushes, takes and joins to it, and passed them on to
; its task bodies and thunks, which store the result through a pointer.
; The optimizer then deleted the call of the body as having no effect, and
; the spawned fib(n-1) was never computed.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,default<O2>' -S %s | FileCheck %s --check-prefix=O2

; CHECK: define i64 @fib(i64 %n) [[PARENT:#[0-9]+]]
; CHECK: define internal void @__ws_body.fib.0(i64 %n1, ptr %a) [[BODY:#[0-9]+]]
; CHECK: define internal void @__ws_thunk.fib.0(ptr %0) [[PARENT]]
; CHECK-DAG: attributes [[PARENT]] = { nounwind willreturn }
; CHECK-DAG: attributes [[BODY]] = { alwaysinline nounwind willreturn }

; Both recursive calls survive: fib(n-1) in the inlined body, fib(n-2).
; O2-LABEL: define i64 @fib(
; O2:         call i64 @fib(
; O2:         call i64 @fib(

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()

define i64 @fib(i64 %n) #0 {
entry:
  %a = alloca i64
  %c = icmp slt i64 %n, 2
  br i1 %c, label %base, label %rec
base:
  ret i64 %n
rec:
  %n1 = sub i64 %n, 1
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @fib)
  %r = call i64 @fib(i64 %n1)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  %n2 = sub i64 %n, 2
  %b = call i64 @fib(i64 %n2)
  call void @__ws_sync()
  %av = load i64, ptr %a
  %s = add i64 %av, %b
  ret i64 %s
}

attributes #0 = { nounwind willreturn memory(none) nosync nofree norecurse }
