; A module without takes: the analysis does no work and reports nothing,
; and ws-delta emits no record (it would add nothing to delta).
; RUN: %opt -load-pass-plugin=%plugin -passes='print<ws-storecount>,ws-anticoalesce,ws-delta' -S %s | FileCheck %s

; CHECK: ws-storecount: 0 take site(s), x = unbounded
; CHECK-NOT: ws_delta
; CHECK-NOT: ws_tls_scratch

define void @plain(ptr %p) {
  store volatile i64 1, ptr %p
  ret void
}
