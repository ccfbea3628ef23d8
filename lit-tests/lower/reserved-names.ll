; The runtime's per-thread state that the fast paths address has reserved
; names: ws_my_dq (the owner's deque), ws_tls_scratch (the scratch lines of
; the anti-coalescing stores) and ws_tls_spawns (the spawn counter).  A
; module that defines one of them, or has a function under the name, gets
; an error, not fast paths stored into the program's own variable.  A
; thread-local declaration (what <ws/abi.h> declares) is fine.
; REQUIRES: x86_64
; RUN: split-file %s %t
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>' -disable-output %t/dq.ll 2>&1 | FileCheck %s --check-prefix=DQ
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>' -disable-output %t/dq-function.ll 2>&1 | FileCheck %s --check-prefix=DQ
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>' -disable-output %t/scratch.ll 2>&1 | FileCheck %s --check-prefix=SCRATCH
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>' -disable-output %t/spawns.ll 2>&1 | FileCheck %s --check-prefix=SPAWNS
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=%abi-bc>' -S %t/declared.ll 2>&1 | FileCheck %s --check-prefix=DECLARED

; DQ: error: ws_my_dq is reserved for the wsff runtime; the module defines it otherwise
; SCRATCH: error: ws_tls_scratch is reserved for the wsff runtime; the module defines it otherwise
; SPAWNS: error: ws_tls_spawns is reserved for the wsff runtime; the module defines it otherwise
; DECLARED-NOT: error
; DECLARED: @ws_my_dq = external {{.*}}thread_local
; DECLARED: define internal i32 @__ws_take_ffmb(

;--- dq.ll
@ws_my_dq = global i64 0
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

;--- dq-function.ll
define void @ws_my_dq() {
  ret void
}
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

;--- scratch.ll
@ws_tls_scratch = thread_local global [64 x i64] zeroinitializer
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

;--- spawns.ll
@ws_tls_spawns = thread_local global i64 0
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

;--- declared.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
%struct.ws_dq = type opaque
@ws_my_dq = external thread_local global %struct.ws_dq
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
