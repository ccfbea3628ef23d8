; Each variant calls its own fast paths; "runtime" calls the generic ones
; (WS_DEQUE picks the deque at start-up).  The variant is recorded in the
; module's ws_delta record for the runtime to check.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=the>' -S %s | FileCheck %s --check-prefix=THE
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=ffcl>' -S %s | FileCheck %s --check-prefix=FFCL
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=split>' -S %s | FileCheck %s --check-prefix=SPLIT
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=private>' -S %s | FileCheck %s --check-prefix=PRIVATE
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=runtime>' -S %s | FileCheck %s --check-prefix=RUNTIME
; RUN: %opt -load-pass-plugin=%plugin -ws-variant=cl -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s --check-prefix=CL

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @g()

define void @t() {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}

; THE: @__ws_delta_record = internal constant { i32, i32, i32, i32, i32, i32, ptr } { i32 2004051046, i32 1, i32 1, i32 256, i32 128, i32 0, ptr @__ws_delta_record.module }, section "ws_delta", align 8
; THE: call void @__ws_push_the(
; THE: call ptr @__ws_take_the(
; FFCL: i32 128, i32 3, ptr
; FFCL: call void @__ws_push_ffcl(
; FFCL: call ptr @__ws_take_ffcl(
; SPLIT: i32 128, i32 5, ptr
; SPLIT: call void @__ws_push_split(
; SPLIT: call ptr @__ws_take_split(
; PRIVATE: i32 128, i32 6, ptr
; PRIVATE: call void @__ws_push_private(
; PRIVATE: call ptr @__ws_take_private(
; RUNTIME: i32 128, i32 255, ptr
; RUNTIME: call void @__ws_push(
; RUNTIME: call ptr @__ws_take(
; CL: i32 128, i32 1, ptr
; CL: call void @__ws_push_cl(
