; A "value task": the spawn's result handling is one store of the call's
; value, of a value that fits in the payload (48 bytes, 16-byte aligned at
; most).  Its body returns the value and the parent makes the store at the
; sync: unstolen from the body's return value, after a join from the
; slot's payload, where the thunk left it.  Anything else is done by the
; body itself through the addresses it captured (a C++ assignment operator
; and destructor of the sret temporary, a volatile store, a result too
; large for the payload); then nothing is stored at the sync and the thunk
; leaves nothing in the payload.
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %t/long-double.ll | FileCheck %s --check-prefix=VALUE
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %t/cxx-assign.ll | FileCheck %s --check-prefix=CXX
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %t/volatile.ll | FileCheck %s --check-prefix=VOLATILE
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %t/too-big.ll | FileCheck %s --check-prefix=BIG

; VALUE-LABEL: define internal void @t.ws(ptr %ws.tail, ptr %out, i64 %x)
; VALUE:       ws.run.plain:
; VALUE-NEXT:    [[V:%.*]] = {{call|invoke}} x86_fp80 @__ws_body.t.ws.0(ptr %ws.slot, i64 %x)
; VALUE:    store x86_fp80 [[V]], ptr %out, align 16
; VALUE:         br label %ws.synced
; VALUE:       ws.join:
; VALUE-NEXT:    {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr %ws.slot)
; VALUE:    [[P:%.*]] = getelementptr inbounds i8, ptr %ws.slot, i64 16
; VALUE-NEXT:    %ws.stolen.result = load x86_fp80, ptr [[P]]
; VALUE-NEXT:    store x86_fp80 %ws.stolen.result, ptr %out, align 16
; VALUE-NEXT:    br label %ws.synced
; VALUE-LABEL: define internal x86_fp80 @__ws_body.t.ws.0(ptr %ws.tail, i64 %x)
; VALUE-NEXT:  entry:
; VALUE-NEXT:    %r = call x86_fp80 @ld(i64 %x), !ws.sync.call
; VALUE-NEXT:    ret x86_fp80 %r
; VALUE-LABEL: define internal void @__ws_thunk.t.ws.0(ptr %0, ptr %1)
; VALUE:         [[R:%.*]] = {{call|invoke}} x86_fp80 @__ws_body.t.ws.0(ptr %1, i64
; VALUE:    [[TP:%.*]] = getelementptr inbounds i8, ptr %0, i64 16
; VALUE-NEXT:    store x86_fp80 [[R]], ptr [[TP]]
; VALUE-NEXT:    ret void

; The C++ assignment and the destructor run in the task, on the temporary
; the body now owns.
; CXX-LABEL: define internal void @t.ws(ptr %ws.tail, ptr %res, i64 %x)
; CXX-NOT:     %tmp = alloca
; CXX:       ws.run.plain:
; CXX-NEXT:    {{call|invoke}} void @__ws_body.t.ws.0(ptr %ws.slot, i64 %x, ptr %res)
; CXX:    br label %ws.synced
; CXX:       ws.join:
; CXX-NEXT:    {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr %ws.slot)
; CXX:    br label %ws.synced
; CXX-LABEL: define internal void @__ws_body.t.ws.0(ptr %ws.tail, i64 %x, ptr %res)
; CXX-NEXT:  entry:
; CXX-NEXT:    %tmp = alloca %struct.Str, align 8
; CXX-NEXT:    call void @mk(ptr sret(%struct.Str) align 8 %tmp, i64 %x), !ws.sync.call
; CXX-NEXT:    %self = call ptr @_ZN3StraSERKS_(ptr %res, ptr %tmp)
; CXX-NEXT:    call void @_ZN3StrD1Ev(ptr %tmp)
; CXX-NEXT:    ret void
; CXX-LABEL: define internal void @__ws_thunk.t.ws.0(ptr %0, ptr %1)
; CXX:         {{call|invoke}} void @__ws_body.t.ws.0(ptr %1,
; CXX:    ret void

; VOLATILE-LABEL: define internal void @t.ws(
; VOLATILE:       ws.run.plain:
; VOLATILE-NEXT:    {{call|invoke}} void @__ws_body.t.ws.0(ptr %ws.slot, i64 %x, ptr %out)
; VOLATILE:    br label %ws.synced
; VOLATILE-LABEL: define internal void @__ws_body.t.ws.0(ptr %ws.tail, i64 %x, ptr %out)
; VOLATILE-NEXT:  entry:
; VOLATILE-NEXT:    %r = call i64 @f(i64 %x), !ws.sync.call
; VOLATILE-NEXT:    store volatile i64 %r, ptr %out
; VOLATILE-NEXT:    ret void

; BIG-LABEL: define internal void @t.ws(
; BIG:       ws.run.plain:
; BIG-NEXT:    {{call|invoke}} void @__ws_body.t.ws.0(ptr %ws.slot, i64 %x, ptr %out)
; BIG:    br label %ws.synced
; BIG-LABEL: define internal void @__ws_body.t.ws.0(ptr %ws.tail, i64 %x, ptr %out)
; BIG-NEXT:  entry:
; BIG-NEXT:    %r = call [7 x i64] @seven(i64 %x), !ws.sync.call
; BIG-NEXT:    store [7 x i64] %r, ptr %out
; BIG-NEXT:    ret void

;--- long-double.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare x86_fp80 @ld(i64)

define void @t(ptr %out, i64 %x) {
  call void (ptr, ...) @__ws_spawn_begin(ptr %out, ptr @ld)
  %r = call x86_fp80 @ld(i64 %x)
  store x86_fp80 %r, ptr %out, align 16
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}

;--- cxx-assign.ll
; What clang++ emits for `ws_spawn(s, mk, x)` with a class that has its
; own (noexcept) assignment operator and a destructor.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
%struct.Str = type { i64 }
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @mk(ptr sret(%struct.Str) align 8, i64)
declare ptr @_ZN3StraSERKS_(ptr, ptr)
declare void @_ZN3StrD1Ev(ptr)

define void @t(ptr %res, i64 %x) {
  %tmp = alloca %struct.Str, align 8
  call void (ptr, ...) @__ws_spawn_begin(ptr %res, ptr @mk)
  call void @mk(ptr sret(%struct.Str) align 8 %tmp, i64 %x)
  %self = call ptr @_ZN3StraSERKS_(ptr %res, ptr %tmp)
  call void @_ZN3StrD1Ev(ptr %tmp)
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}

;--- volatile.ll
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64)

define void @t(ptr %out, i64 %x) {
  call void (ptr, ...) @__ws_spawn_begin(ptr %out, ptr @f)
  %r = call i64 @f(i64 %x)
  store volatile i64 %r, ptr %out
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}

;--- too-big.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare [7 x i64] @seven(i64)

define void @t(ptr %out, i64 %x) {
  call void (ptr, ...) @__ws_spawn_begin(ptr %out, ptr @seven)
  %r = call [7 x i64] @seven(i64 %x)
  store [7 x i64] %r, ptr %out
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}
