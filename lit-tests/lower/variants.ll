; Each variant calls its own fast paths, push(slot) and an i32 take(slot);
; "runtime" calls the generic ones (WS_DEQUE picks the deque at start-up).
; The variant is recorded in the module's ws_delta record for the runtime
; to check (and for the passes after ws-lower: the record is the one
; carrier).  Split and private deques keep the tail out of memory, so for
; them (and for "runtime", which may run them) the task body stores it
; (__ws_publish_tail) before calling a function that may reach an entry
; point, and the entry point stores its own back after the clone; the
; others never do.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=the>' -S %s | FileCheck %s --check-prefix=THE --implicit-check-not=__ws_publish_tail
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=ffcl>' -S %s | FileCheck %s --check-prefix=FFCL --implicit-check-not=__ws_publish_tail
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=split>' -S %s | FileCheck %s --check-prefix=SPLIT
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=private>' -S %s | FileCheck %s --check-prefix=PRIVATE
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=runtime>' -S %s | FileCheck %s --check-prefix=RUNTIME
; RUN: %opt -load-pass-plugin=%plugin -ws-variant=cl -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s --check-prefix=CL --implicit-check-not=__ws_publish_tail

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

; The record: magic, version, x, S, delta, variant, flags, ABI version, module.
; THE: @__ws_delta_record = internal constant { i32, i32, i32, i32, i32, i32, i32, i32, ptr } { i32 2004051046, i32 2, i32 1, i32 256, i32 128, i32 0, i32 0, i32 3, ptr @__ws_delta_record.module }, section "ws_delta", align 8
; THE: call void @__ws_push_the(ptr
; THE: call i32 @__ws_take_the(ptr
; FFCL: i32 128, i32 3, i32 0, i32 3, ptr
; FFCL: call void @__ws_push_ffcl(ptr
; FFCL: call i32 @__ws_take_ffcl(ptr
; SPLIT: i32 128, i32 5, i32 0, i32 3, ptr
; SPLIT-LABEL: define void @t()
; SPLIT:         %ws.tail = call ptr @__ws_tail()
; SPLIT:       ws.run:
; SPLIT-NEXT:    invoke void @t.ws(ptr %ws.tail)
; SPLIT-NEXT:      to label %ws.returned unwind label %ws.unwound
; SPLIT:       ws.returned:
; SPLIT-NEXT:    call void @__ws_publish_tail(ptr %ws.tail)
; SPLIT-NEXT:    ret void
; SPLIT:       ws.unwound:
; SPLIT-NEXT:    landingpad
; SPLIT-NEXT:      cleanup
; SPLIT-NEXT:    call void @__ws_publish_tail(ptr %ws.tail)
; SPLIT-NEXT:    resume
; SPLIT: call void @__ws_push_split(ptr
; SPLIT: call i32 @__ws_take_split(ptr
; SPLIT-LABEL: define internal void @__ws_body.t.ws.0(ptr %ws.tail)
; SPLIT-NEXT:  entry:
; SPLIT-NEXT:    call void @__ws_publish_tail(ptr %ws.tail)
; SPLIT-NEXT:    call void @g()
; PRIVATE: i32 128, i32 6, i32 0, i32 3, ptr
; PRIVATE: call void @__ws_push_private(ptr
; PRIVATE: call i32 @__ws_take_private(ptr
; PRIVATE-LABEL: define internal void @__ws_body.t.ws.0(ptr %ws.tail)
; PRIVATE-NEXT:  entry:
; PRIVATE-NEXT:    call void @__ws_publish_tail(ptr %ws.tail)
; PRIVATE-NEXT:    call void @g()
; RUNTIME: i32 128, i32 255, i32 0, i32 3, ptr
; RUNTIME: call void @__ws_push(ptr
; RUNTIME: call i32 @__ws_take(ptr
; RUNTIME-LABEL: define internal void @__ws_body.t.ws.0(ptr %ws.tail)
; RUNTIME-NEXT:  entry:
; RUNTIME-NEXT:    call void @__ws_publish_tail(ptr %ws.tail)
; RUNTIME-NEXT:    call void @g()
; CL: i32 128, i32 1, i32 0, i32 3, ptr
; CL: call void @__ws_push_cl(ptr
; CL: call i32 @__ws_take_cl(ptr
