; Split and private deques keep the owner's tail out of memory (their push
; and take do not store it), so before a call that may reach an entry point
; (which asks __ws_tail) the spawning code stores it there itself: in the
; clone with the tail as it is at the call, in a task body with the tail
; the body runs on.  Not before calls that cannot enter spawning code: a
; clone (it gets the tail), the runtime, an intrinsic, a library function
; without callbacks, a call that only reads memory.  qsort calls back.
; The variants whose push and take store the tail never publish it.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=split>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=private>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=thep>' -S %s | FileCheck %s --check-prefix=STORED --implicit-check-not=__ws_publish_tail
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=the>' -S %s | FileCheck %s --check-prefix=STORED --implicit-check-not=__ws_publish_tail

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Nothing here unwinds, as in C: the exception paths are checked by
; invoke-resume.ll and language/exceptions.cpp.
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @opaque() nounwind
declare i64 @strlen(ptr) nounwind
declare i64 @pure(i64) memory(read) nounwind
declare void @qsort(ptr, i64, i64, ptr) nounwind
declare i32 @cmp(ptr, ptr) nounwind
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define void @helper() nounwind {
  ret void
}

define void @child(i64 %n) nounwind {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @opaque)
  call void @opaque()
  call void @__ws_spawn_end()
  ret void
}

define void @t(ptr %s, ptr %fn, ptr %base) nounwind {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @opaque)
  call void @opaque()
  call void @__ws_spawn_end()
  call void @opaque()
  call void %fn()
  call void @helper()
  call void @qsort(ptr %base, i64 10, i64 8, ptr @cmp)
  call void @child(i64 1)
  %n = call i64 @strlen(ptr %s)
  %p = call i64 @pure(i64 %n)
  call void @llvm.memset.p0.i64(ptr %base, i8 0, i64 8, i1 false)
  call void @__ws_sync()
  ret void
}

; CHECK-LABEL: define internal void @t.ws(ptr %ws.tail, ptr %s, ptr %fn, ptr %base)
; CHECK:         call void @__ws_push_{{split|private}}(ptr [[SLOT:%.*]])
; CHECK-NEXT:    [[T1:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    call void @__ws_publish_tail(ptr [[T1]])
; CHECK-NEXT:    call void @opaque()
; CHECK-NEXT:    [[T2:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    call void @__ws_publish_tail(ptr [[T2]])
; CHECK-NEXT:    call void %fn()
; CHECK-NEXT:    [[T3:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    call void @__ws_publish_tail(ptr [[T3]])
; CHECK-NEXT:    call void @helper()
; CHECK-NEXT:    [[T4:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    call void @__ws_publish_tail(ptr [[T4]])
; CHECK-NEXT:    call void @qsort(
; CHECK-NEXT:    [[T5:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    call void @child.ws(ptr [[T5]], i64 1)
; CHECK-NEXT:    %n = call i64 @strlen(ptr %s)
; CHECK-NEXT:    %p = call i64 @pure(i64 %n)
; CHECK-NEXT:    call void @llvm.memset.p0.i64(
; CHECK-NEXT:    [[TOP:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    %ws.slot = getelementptr inbounds i8, ptr [[TOP]], i64 -64
; CHECK-LABEL: define internal void @__ws_body.t.ws.0(ptr %ws.tail)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void @__ws_publish_tail(ptr %ws.tail)
; CHECK-NEXT:    call void @opaque()

; STORED-LABEL: define internal void @t.ws(
; STORED:         call void @opaque()
; STORED:         call void %fn()
