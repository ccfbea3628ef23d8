; A module without ws builtins is left alone: no runtime declarations, no
; record (so it adds nothing to delta).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower,ws-delta' -S %s | FileCheck %s

define i64 @plain(i64 %x) {
  %y = add i64 %x, 1
  ret i64 %y
}

; CHECK-NOT: __ws_
; CHECK-NOT: ws_delta
; CHECK: define i64 @plain
; CHECK-NOT: __ws_
