; Found by ws-lower-fuzzer: a module that defines __ws_exception_rethrow as
; something else (a variable) crashed the lowering of a spawning function's
; entry point, which throws a handed-over call's exception again (an
; assertion: the global was taken for a function).  It is now called
; through whatever the module has, as any call the module makes.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @work(i64)
@__ws_exception_rethrow = global i32 0

define i64 @sum(i64 %n) {
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @work)
  %r = call i64 @work(i64 %n)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
}

; CHECK-LABEL: define i64 @sum(i64 %0)
; CHECK:       ws.submitted.rethrow:
; CHECK-NEXT:    call void @__ws_exception_rethrow(ptr
; CHECK-NEXT:    unreachable
