; Found by ws-lower-fuzzer: !ws.variant (ws-lower's note of the variant
; for the passes after it) with an empty node crashed ws-delta.  The note
; is gone: the module's record is the one carrier of the variant, and a
; !ws.variant node in the input, empty or naming another variant, means
; nothing to any pass.  ws-delta on a module with a take and no record
; makes one with its own variant (cl: 1); after ws-lower it keeps the
; variant ws-lower wrote (ffcl: 3), whatever its own option says.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-delta<variant=cl>' -S %s | FileCheck %s --check-prefix=OWN
; RUN: sed 's/^!0 = !{}/!0 = !{!"split"}/' %s | %opt -load-pass-plugin=%plugin -passes='ws-delta<variant=cl>' -S | FileCheck %s --check-prefix=OWN
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=ffcl>,ws-delta<variant=cl>' -S %s | FileCheck %s --check-prefix=LOWERED

; OWN: @__ws_delta_record = internal constant {{.*}} { i32 2004051046, i32 2, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 1, i32 0, i32 3,
; LOWERED: @__ws_delta_record = internal constant {{.*}} { i32 2004051046, i32 2, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 3, i32 0, i32 3,

!ws.variant = !{!0}
!0 = !{}

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @g()
declare i32 @__ws_take_cl(ptr)

define void @t(ptr %slot) {
  %stolen = call i32 @__ws_take_cl(ptr %slot)
  ret void
}

define void @s() {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}
