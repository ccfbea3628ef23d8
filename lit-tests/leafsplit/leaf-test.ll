; ws-leafsplit: a clone ws-lower made that starts with a leaf test (fib's
; `if (n < 2) return n`) is split into an always-inline entry, which runs
; the test and returns the leaf's value or calls the rest, and the body,
; <clone>.body.  The entries are then inlined into every caller, the body's
; own recursive call included: a leaf costs its callers the test only.
; Only clones are split, only a short test free of side effects, and only
; when the leaf path returns values the test computed.
; RUN: %opt -load-pass-plugin=%plugin -passes=ws-leafsplit -S %s | FileCheck %s --implicit-check-not='@fib.ws('

declare i64 @work(ptr, i64)
declare void @note(i64)

define internal i64 @fib.ws(ptr %ws.tail, i64 %n) #0 {
entry:
  %small = icmp slt i64 %n, 2
  br i1 %small, label %leaf, label %rec
leaf:
  ret i64 %n
rec:
  %r = call i64 @work(ptr %ws.tail, i64 %n)
  %n1 = sub i64 %n, 1
  %x = call i64 @fib.ws(ptr %ws.tail, i64 %n1)
  %s = add i64 %r, %x
  ret i64 %s
}

define i64 @fib(ptr %t, i64 %n) {
  %v = call i64 @fib.ws(ptr %t, i64 %n)
  ret i64 %v
}

; CHECK-LABEL: define internal i64 @fib.ws.body(ptr %ws.tail, i64 %n) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %small = icmp slt i64 %n, 2
; CHECK-NEXT:    br i1 %small, label %leaf, label %rec
; CHECK:       rec:
; CHECK:         %n1 = sub i64 %n, 1
; CHECK-NEXT:    [[T:%.*]] = icmp slt i64 %n1, 2
; CHECK-NEXT:    br i1 [[T]], label %[[LEAF:.*]], label %[[BODY:.*]]
; CHECK:       [[BODY]]:
; CHECK-NEXT:    [[X:%.*]] = call i64 @fib.ws.body(ptr %ws.tail, i64 %n1)
; CHECK:         phi i64 [ %n1, %[[LEAF]] ], [ [[X]], %[[BODY]] ]

; CHECK-LABEL: define i64 @fib(ptr %t, i64 %n) {
; CHECK-NEXT:    [[T:%.*]] = icmp slt i64 %n, 2
; CHECK-NEXT:    br i1 [[T]], label %[[LEAF:.*]], label %[[BODY:.*]]
; CHECK:       [[BODY]]:
; CHECK-NEXT:    [[X:%.*]] = call i64 @fib.ws.body(ptr %t, i64 %n)
; CHECK:         phi i64 [ %n, %[[LEAF]] ], [ [[X]], %[[BODY]] ]

; A leaf path with a side effect stays in the clone.
define internal i64 @noisy.ws(ptr %ws.tail, i64 %n) #0 {
entry:
  %small = icmp slt i64 %n, 2
  br i1 %small, label %leaf, label %rec
leaf:
  call void @note(i64 %n)
  ret i64 %n
rec:
  %r = call i64 @work(ptr %ws.tail, i64 %n)
  ret i64 %r
}

; Not a clone: left alone.
define internal i64 @plain(ptr %ws.tail, i64 %n) {
entry:
  %small = icmp slt i64 %n, 2
  br i1 %small, label %leaf, label %rec
leaf:
  ret i64 %n
rec:
  %r = call i64 @work(ptr %ws.tail, i64 %n)
  ret i64 %r
}

define i64 @callers(ptr %t, i64 %n) {
  %a = call i64 @noisy.ws(ptr %t, i64 %n)
  %b = call i64 @plain(ptr %t, i64 %n)
  %s = add i64 %a, %b
  ret i64 %s
}

; CHECK-LABEL: define internal i64 @noisy.ws(
; CHECK-LABEL: define internal i64 @plain(
; CHECK-LABEL: define i64 @callers(ptr %t, i64 %n) {
; CHECK-NEXT:    %a = call i64 @noisy.ws(ptr %t, i64 %n)
; CHECK-NEXT:    %b = call i64 @plain(ptr %t, i64 %n)

attributes #0 = { "ws-clone" }
