; ws-anticoalesce puts a volatile store to a per-thread scratch line right
; after each take whose minimal path to the next take has no guaranteed
; store, and nowhere else; then the module's x is at least 1.  Line 0 is
; the one the runtime's own anti-coalescing store uses: the inserted stores
; start at line 1 (word 8).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-anticoalesce,print<ws-storecount>' -S %s -o - | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=ws-anticoalesce -pass-remarks=ws-anticoalesce -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

; CHECK: ws-storecount: 4 take site(s), x = 1
; CHECK-NEXT: take in needs at ?: x = 1, to the take at ? in needs
; CHECK-NEXT: take in needs at ?: x = unbounded
; CHECK-NEXT: take in has_one at ?: x = 1, to the take at ? in has_one
; CHECK-NEXT: take in has_one at ?: x = unbounded

; A module with no PIC level builds an executable: local-exec, as ws-lower
; gives the runtime's other per-thread state.
; CHECK: @ws_tls_scratch = external dso_local thread_local(localexec) global [64 x i64], align 64
; CHECK-LABEL: define internal void @needs(
; CHECK-NEXT:    call void asm sideeffect "# ws.take"
; CHECK-NEXT:    [[LINES:%.*]] = call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@ws_tls_scratch)
; CHECK-NEXT:    [[SLOT:%.*]] = getelementptr inbounds i64, ptr [[LINES]], i64 8
; CHECK-NEXT:    store volatile i64 0, ptr [[SLOT]], align 8, !ws.store
; CHECK-NEXT:    call void asm sideeffect "# ws.take"
; CHECK-NEXT:    unreachable
; CHECK-LABEL: define internal void @has_one(
; CHECK-NEXT:    call void asm sideeffect "# ws.take"
; CHECK-NEXT:    store volatile i64 1, ptr %p
; CHECK-NEXT:    call void asm sideeffect "# ws.take"

; REMARK: remark: <unknown>:0:0: inserted 1 store(s) after take(): anti-coalescing, no store was proven before the take at ? in needs
; REMARK-NOT: remark

define internal void @needs() {
  call void asm sideeffect "# ws.take", "~{memory}"()
  call void asm sideeffect "# ws.take", "~{memory}"()
  unreachable
}

define internal void @has_one(ptr %p) {
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 1, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  br label %loop
loop:
  br label %loop
}

!0 = !{}
