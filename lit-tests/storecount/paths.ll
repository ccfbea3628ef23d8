; x on hand-built CFGs with known answers.  A take site is the `# ws.take`
; marker; counted stores carry !ws.store (what the passes and the runtime's
; fast paths emit).  Each function is its own world: internal, called from
; nowhere, so its returns lead nowhere (unbounded) unless stated.
; RUN: %opt -load-pass-plugin=%plugin -passes='print<ws-storecount>' -disable-output %s | FileCheck %s

; CHECK:      ws-storecount: 15 take site(s), x = 0
; CHECK-NEXT:   take in line at ?: x = 3, to the take at ? in line
; CHECK-NEXT:   take in line at ?: x = 0, to a return from line, then a return to a caller outside the module [needs an anti-coalescing store]
; CHECK-NEXT:   take in diamond at ?: x = 1, to the take at ? in diamond
; CHECK-NEXT:   take in diamond at ?: x = unbounded
; CHECK-NEXT:   take in maybe_loop at ?: x = 1, to the take at ? in maybe_loop
; CHECK-NEXT:   take in maybe_loop at ?: x = unbounded
; CHECK-NEXT:   take in once_loop at ?: x = 3, to the take at ? in once_loop
; CHECK-NEXT:   take in once_loop at ?: x = unbounded
; CHECK-NEXT:   take in two_in_block at ?: x = 2, to the take at ? in two_in_block
; CHECK-NEXT:   take in two_in_block at ?: x = 1, to the take at ? in two_in_block
; CHECK-NEXT:   take in two_in_block at ?: x = unbounded
; CHECK-NEXT:   take in unknown_call at ?: x = 1, to a call that may take (opaque) at ? in unknown_call
; CHECK-NEXT:   take in unknown_call at ?: x = unbounded
; CHECK-NEXT:   take in barrier at ?: x = 2, to the take at ? in barrier
; CHECK-NEXT:   take in barrier at ?: x = unbounded

declare void @opaque()

; Straight line: take, three stores, take.  The second take's own path
; returns out of the module (external @line): 0 stores after it.
define void @line(ptr %p) {
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 1, ptr %p, !ws.store !0
  %q = getelementptr i64, ptr %p, i64 8
  store volatile i64 2, ptr %q, !ws.store !0
  store volatile i64 3, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  ret void
}

; Diamond: the cheaper arm decides.
define internal void @diamond(ptr %p, i1 %c) {
entry:
  call void asm sideeffect "# ws.take", "~{memory}"()
  br i1 %c, label %two, label %one
two:
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 2, ptr %p, !ws.store !0
  br label %join
one:
  store volatile i64 3, ptr %p, !ws.store !0
  br label %join
join:
  call void asm sideeffect "# ws.take", "~{memory}"()
  ret void
}

; A loop that may run zero times adds nothing; one that must run once
; (a do-while) adds its body.
define internal void @maybe_loop(ptr %p, i64 %n) {
entry:
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 0, ptr %p, !ws.store !0
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 2, ptr %p, !ws.store !0
  %i1 = add i64 %i, 1
  br label %head
exit:
  call void asm sideeffect "# ws.take", "~{memory}"()
  ret void
}
define internal void @once_loop(ptr %p, i64 %n) {
entry:
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 0, ptr %p, !ws.store !0
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 2, ptr %p, !ws.store !0
  %i1 = add i64 %i, 1
  %more = icmp slt i64 %i1, %n
  br i1 %more, label %body, label %exit
exit:
  call void asm sideeffect "# ws.take", "~{memory}"()
  ret void
}

; Two takes in one block: the block is split at each.
define internal void @two_in_block(ptr %p) {
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 1, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 1, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  br label %loop
loop:
  br label %loop
}

; An unknown external call counts as 0 stores and a possible take.
define internal void @unknown_call(ptr %p) {
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 1, ptr %p, !ws.store !0
  call void @opaque()
  store volatile i64 2, ptr %p, !ws.store !0
  store volatile i64 3, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  unreachable
}

; A locked instruction drains the store buffer: no path through it counts.
define internal void @barrier(ptr %p, i1 %c) {
entry:
  call void asm sideeffect "# ws.take", "~{memory}"()
  br i1 %c, label %locked, label %plain
locked:
  %old = atomicrmw add ptr %p, i64 1 seq_cst
  br label %join
plain:
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 2, ptr %p, !ws.store !0
  br label %join
join:
  call void asm sideeffect "# ws.take", "~{memory}"()
  unreachable
}

!0 = !{}
