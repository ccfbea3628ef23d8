; x across calls within the module: a take inside a callee, a callee
; without takes (its own minimum store count), a return into a caller that
; takes again, recursion (fixpoint over the SCC).
; RUN: %opt -load-pass-plugin=%plugin -passes='print<ws-storecount>' -disable-output %s | FileCheck %s

; CHECK:      ws-storecount: 9 take site(s), x = 0
; CHECK-NEXT:   take in has_take at ?: x = 3, to a return from has_take, then the take at ? in return_then_take
; CHECK-NEXT:   take in caller_of_take at ?: x = 3, to a take inside has_take, called at ? in caller_of_take
; CHECK-NEXT:   take in return_then_take at ?: x = unbounded
; CHECK-NEXT:   take in over_no_take at ?: x = 2, to the take at ? in over_no_take
; CHECK-NEXT:   take in over_no_take at ?: x = unbounded
; CHECK-NEXT:   take in even at ?: x = 4, to a take inside odd, called at ? in even
; CHECK-NEXT:   take in escapes at ?: x = 0, to a return from escapes, then a return to a caller outside the module [needs an anti-coalescing store]
; CHECK-NEXT:   take in user_stores at ?: x = 1, to the take at ? in user_stores
; CHECK-NEXT:   take in user_stores at ?: x = unbounded

; take -> 1 store -> call @has_take, which makes 2 stores before its take.
define internal void @has_take(ptr %p) {
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 2, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 3, ptr %p, !ws.store !0
  ret void
}
define internal void @caller_of_take(ptr %p) {
  call void asm sideeffect "# ws.take", "~{memory}"()
  store volatile i64 1, ptr %p, !ws.store !0
  call void @has_take(ptr %p)
  unreachable
}

; The take in @has_take returns (1 store) into either caller; from
; @caller_of_take there is no way on, from @return_then_take 2 more stores
; before its own take.
define internal void @return_then_take(ptr %p) {
  call void @has_take(ptr %p)
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 2, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  unreachable
}

; A callee without takes adds its own minimum: here min(1, 4) = 1.
define internal void @no_take(ptr %p, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  store volatile i64 1, ptr %p, !ws.store !0
  ret void
b:
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 2, ptr %p, !ws.store !0
  store volatile i64 3, ptr %p, !ws.store !0
  store volatile i64 4, ptr %p, !ws.store !0
  ret void
}
define internal void @over_no_take(ptr %p, i1 %c) {
  call void asm sideeffect "# ws.take", "~{memory}"()
  call void @no_take(ptr %p, i1 %c)
  store volatile i64 9, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  unreachable
}

; Mutual recursion: @even makes 1 store and takes, then either returns or
; makes 1 store and calls @odd, which makes 2 stores and calls @even:
; from the take, 1 + 2 + 1 = 4 stores to the next take.  Returns lead
; nowhere (@start does not return).
define internal void @even(ptr %p, i64 %n) {
entry:
  store volatile i64 1, ptr %p, !ws.store !0
  call void asm sideeffect "# ws.take", "~{memory}"()
  %z = icmp eq i64 %n, 0
  br i1 %z, label %done, label %rec
rec:
  store volatile i64 2, ptr %p, !ws.store !0
  %m = sub i64 %n, 1
  call void @odd(ptr %p, i64 %m)
  br label %done
done:
  ret void
}
define internal void @odd(ptr %p, i64 %n) {
  store volatile i64 1, ptr %p, !ws.store !0
  store volatile i64 2, ptr %p, !ws.store !0
  call void @even(ptr %p, i64 %n)
  ret void
}
define internal void @start(ptr %p) {
  call void @even(ptr %p, i64 10)
  unreachable
}

; Unless a caller returns out of the module: then the boundary counts as
; 0 stores and a possible take.
define internal void @escapes(ptr %p) {
  call void asm sideeffect "# ws.take", "~{memory}"()
  ret void
}
define void @exported(ptr %p) {
  call void @escapes(ptr %p)
  ret void
}

; User stores: a plain store never counts (codegen may merge or drop it);
; a volatile one counts when the next store in its block provably goes
; elsewhere (then the two cannot coalesce), not when it may hit the same
; place.
define internal void @user_stores(ptr noalias %p, ptr noalias %q) {
  call void asm sideeffect "# ws.take", "~{memory}"()
  store i64 1, ptr %p
  store i64 2, ptr %q
  store volatile i64 3, ptr %p
  store volatile i64 4, ptr %q
  store volatile i64 5, ptr %q
  call void asm sideeffect "# ws.take", "~{memory}"()
  unreachable
}

!0 = !{}
