; Found by ws-lower-fuzzer: !ws.variant (ws-lower's note of the variant
; for the passes after it) with an empty node crashed ws-delta.  A node
; without a variant name says nothing: the record takes the pass's own.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-delta<variant=cl>' -S %s | FileCheck %s

; CHECK: @__ws_delta_record = internal constant {{.*}} { i32 2004051046, i32 1, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 1,

!ws.variant = !{!0}
!0 = !{}

declare ptr @__ws_take_cl(ptr)

define void @t(ptr %w) {
  %t = call ptr @__ws_take_cl(ptr %w)
  ret void
}
