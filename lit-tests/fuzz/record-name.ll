; Found by ws-lower-fuzzer: a module that defines or declares
; __ws_delta_record itself crashed ws-delta, which took whatever had the
; name for the record ws-lower made.  The name is the passes': anything
; else under it is an error.
; RUN: split-file %s %t
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-delta -disable-output %t/other-type.ll 2>&1 | FileCheck %s
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-delta -disable-output %t/declared.ll 2>&1 | FileCheck %s
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -disable-output %t/function.ll 2>&1 | FileCheck %s

; CHECK: error: __ws_delta_record is reserved for the record of the wsff passes; the module defines it otherwise

;--- other-type.ll
@__ws_delta_record = global i32 7
declare i32 @__ws_take_thep(ptr)
define void @t(ptr %w) {
  %t = call i32 @__ws_take_thep(ptr %w)
  ret void
}

;--- declared.ll
@__ws_delta_record = external global { i32, i32, i32, i32, i32, i32, i32, i32, ptr }
declare i32 @__ws_take_thep(ptr)
define void @t(ptr %w) {
  %t = call i32 @__ws_take_thep(ptr %w)
  ret void
}

;--- function.ll
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @g()
declare void @__ws_delta_record()
define void @t() {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  call void @__ws_delta_record()
  ret void
}
