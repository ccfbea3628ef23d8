; Found by ws-lower-fuzzer: ws-anticoalesce stored through any global named
; ws_tls_scratch (the runtime's per-thread scratch lines), so a module with
; a plain variable of that name came out as invalid IR
; (llvm.threadlocal.address of a global that is not thread-local), and a
; function of that name made the pass declare a renamed variable that
; nothing defines.  Both are now an error naming the variable.
; RUN: split-file %s %t
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-anticoalesce -disable-output %t/variable.ll 2>&1 | FileCheck %s
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-anticoalesce -disable-output %t/function.ll 2>&1 | FileCheck %s

; CHECK: error: ws_tls_scratch is the scratch space of the wsff runtime; the module defines it otherwise
; CHECK-NOT: error

;--- variable.ll
@ws_tls_scratch = global [4 x i64] zeroinitializer

define internal void @two_takes() {
  call void asm sideeffect "# ws.take", "~{memory}"()
  call void asm sideeffect "# ws.take", "~{memory}"()
  call void asm sideeffect "# ws.take", "~{memory}"()
  unreachable
}

;--- function.ll
declare void @ws_tls_scratch()

define internal void @two_takes() {
  call void asm sideeffect "# ws.take", "~{memory}"()
  call void asm sideeffect "# ws.take", "~{memory}"()
  unreachable
}
