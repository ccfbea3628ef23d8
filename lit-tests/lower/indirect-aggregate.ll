; An aggregate passed by value through a pointer to the caller's copy (the
; AArch64 ABI for a struct over 16 bytes: no byval, unlike x86-64): the
; copy is a temporary clang ends right after the call, so the task, which
; runs later, gets a copy of its own in the frame descriptor, as for a
; byval argument (issue 36: a C program segfaulted at 1 worker).  The
; temporary's life does not end before that copy: the lifetime.end after
; the call was hoisted above the spawn, and the optimizer dropped the
; writes that filled the temporary (AArch64 structs of 30 bytes and more
; summed garbage at every worker count).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %s | FileCheck %s

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-gnu"

%struct.Big = type { [5 x i64] }

declare ptr @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @use(ptr noundef, i64 noundef)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

define i64 @f(ptr noundef %x) {
entry:
  %r = alloca i64, align 8
  %tmp = alloca %struct.Big, align 8
  %fn = call ptr (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @use)
  call void @llvm.lifetime.start.p0(i64 40, ptr %tmp)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %tmp, ptr align 8 %x, i64 40, i1 false)
  %v = call i64 %fn(ptr noundef %tmp, i64 noundef 3)
  call void @llvm.lifetime.end.p0(i64 40, ptr %tmp)
  store i64 %v, ptr %r, align 8
  call void @__ws_spawn_end()
  store i64 100, ptr %x, align 8
  call void @__ws_sync()
  %res = load i64, ptr %r, align 8
  ret i64 %res
}

; CHECK-LABEL: define internal i64 @f.ws(
; CHECK:         %ws.frame = alloca %ws.task.f.ws.0, align 16
; CHECK:         call void @llvm.memcpy.p0.p0.i64(ptr align 8 %tmp, ptr align 8 %x, i64 40, i1 false)
; CHECK-NOT:     call void @llvm.lifetime.end.p0(i64 40, ptr %tmp)
; CHECK:         store ptr %ws.frame, ptr %ws.payload
; CHECK-NEXT:    [[F:%.*]] = getelementptr inbounds %ws.task.f.ws.0, ptr %ws.frame, i32 0, i32 0
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 8 [[F]], ptr align 8 %tmp, i64 40, i1 false)
; CHECK:         [[G:%.*]] = getelementptr inbounds %ws.task.f.ws.0, ptr %ws.frame, i32 0, i32 0
; CHECK-NEXT:    call i64 @__ws_body.f.ws.0(ptr %ws.slot, ptr [[G]])
