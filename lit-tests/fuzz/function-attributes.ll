; Seen while fuzzing (reading what the outlining copies): a spawning
; function declared pure (clang's memory(none) for __attribute__((const)),
; or inferred) kept memory(none), nosync, nofree and norecurse after the
; lowering had added pushes, takes and joins to it, and passed them on to
; its task bodies and thunks, which store the result through a pointer.
; The optimizer then deleted the call of the body as having no effect, and
; the spawned fib(n-1) was never computed.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,default<O2>' -S %s | FileCheck %s --check-prefix=O2

; Now the body of fib moves to its clone fib.ws, whose attributes the task
; body and thunk start from: none of the three may keep them, nor the entry
; point fib, which reads the tail and calls the clone.
; CHECK:      ; Function Attrs: nounwind willreturn{{$}}
; CHECK-NEXT: define i64 @fib(
; CHECK:      ; Function Attrs: nounwind willreturn{{$}}
; CHECK-NEXT: define internal i64 @fib.ws(ptr %ws.tail, i64 %n)
; CHECK:      ; Function Attrs: alwaysinline nounwind willreturn{{$}}
; CHECK-NEXT: define internal i64 @__ws_body.fib.ws.0(ptr %ws.tail, i64 %n1)
; CHECK:      ; Function Attrs: nounwind willreturn{{$}}
; CHECK-NEXT: define internal void @__ws_thunk.fib.ws.0(ptr %0, ptr %1)

; Both halves survive: the spawned fib(n-1), which ws-tre turned into the
; loop back to %rec (fib(n) = fib(n-1) + fib(n-2) with an accumulator),
; and the direct fib(n-2); and the push, take and join around them.
; O2-LABEL: define internal fastcc i64 @fib.ws.body(
; O2:       rec:
; O2:         call void @__ws_push_ffmb(
; O2:         call fastcc i64 @fib.ws.body(
; O2:         call i32 @__ws_take_ffmb(
; O2:       ws.run:
; O2:         br i1 {{.*}}, label %common.ret{{[0-9a-z.]*}}, label %rec
; O2:       ws.join:
; O2:         {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(

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
