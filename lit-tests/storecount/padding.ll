; ws-target-delta=N pads each take with just enough stores that
; delta = ceil(S / (x + 1)) <= N for the compile-time S: here S = 16 and
; N = 4 need x >= 3.  The take with 1 store gets 2 more, the one with 5
; none.  Consecutive padding stores go to different scratch lines, from
; line 1 on (line 0 is the runtime's own anti-coalescing store's).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-anticoalesce<store-buffer=16;target-delta=4>,print<ws-storecount>' -S %s -o - | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-anticoalesce<store-buffer=16;target-delta=4>' -pass-remarks=ws-anticoalesce -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

; CHECK: take in pad at ?: x = 3, to the take at ? in pad
; CHECK: take in pad at ?: x = 5, to the take at ? in pad
; CHECK-LABEL: define internal void @pad(
; CHECK-NEXT:    call void asm sideeffect "# ws.take"
; CHECK-NEXT:    [[L:%.*]] = call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@ws_tls_scratch)
; CHECK-NEXT:    [[S1:%.*]] = getelementptr inbounds i64, ptr [[L]], i64 8
; CHECK-NEXT:    store volatile i64 0, ptr [[S1]]
; CHECK-NEXT:    [[S2:%.*]] = getelementptr inbounds i64, ptr [[L]], i64 16
; CHECK-NEXT:    store volatile i64 1, ptr [[S2]]
; CHECK-NEXT:    store volatile i64 1, ptr %p
; CHECK-NEXT:    call void asm sideeffect "# ws.take"
; CHECK-NOT:     ws_tls_scratch
; CHECK:         ret void

; REMARK: inserted 2 store(s) after take(): padding to x = 3 for delta <= 4 with S = 16
; REMARK-NOT: remark

define internal void @pad(ptr %p) {
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 1, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 2, ptr %p, !ws.store !0
  store volatile i64 3, ptr %p, !ws.store !0
  store volatile i64 4, ptr %p, !ws.store !0
  store volatile i64 5, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  ret void
}
define void @entry(ptr %p) {
  call void @pad(ptr %p)
  unreachable
}

!0 = !{}
