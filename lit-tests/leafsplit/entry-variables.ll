; ws-leafsplit leaves the clone's local variables (allocas of its entry
; block: skynet's array of results) with the body when the leaf test and
; value do not use them; a test that reads one, or a leaf that returns
; one's address, directly or through a phi, keeps the clone whole.
; RUN: %opt -load-pass-plugin=%plugin -passes=ws-leafsplit -S %s | FileCheck %s

; CHECK-LABEL: define internal i64 @arr.ws.body(ptr %ws.tail, i64 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %sums = alloca [10 x i64]
; CHECK-LABEL: define i64 @call_arr(
; CHECK:         icmp eq i64 %n, 1
; CHECK:         call i64 @arr.ws.body(
; CHECK-LABEL: define i64 @call_reads(
; CHECK-NEXT:    call i64 @reads.ws(
; CHECK-LABEL: define ptr @call_returns(
; CHECK-NEXT:    call ptr @returns.ws(
; CHECK-LABEL: define ptr @call_phi(
; CHECK-NEXT:    call ptr @phi.ws(

declare void @use(ptr)

define internal i64 @arr.ws(ptr %ws.tail, i64 %n) #0 {
entry:
  %sums = alloca [10 x i64]
  %leaf = icmp eq i64 %n, 1
  br i1 %leaf, label %done, label %body
done:
  ret i64 %n
body:
  call void @use(ptr %sums)
  %v = load i64, ptr %sums
  ret i64 %v
}

define internal i64 @reads.ws(ptr %ws.tail, i64 %n) #0 {
entry:
  %x = alloca i64
  store i64 %n, ptr %x
  %v = load i64, ptr %x
  %leaf = icmp eq i64 %v, 1
  br i1 %leaf, label %done, label %body
done:
  ret i64 %n
body:
  call void @use(ptr %x)
  ret i64 0
}

define internal ptr @returns.ws(ptr %ws.tail, i64 %n) #0 {
entry:
  %x = alloca i64
  %leaf = icmp eq i64 %n, 1
  br i1 %leaf, label %done, label %body
done:
  ret ptr %x
body:
  call void @use(ptr %x)
  ret ptr null
}

define internal ptr @phi.ws(ptr %ws.tail, i64 %n) #0 {
entry:
  %x = alloca i64
  %leaf = icmp eq i64 %n, 1
  br i1 %leaf, label %done, label %body
done:
  %p = phi ptr [ %x, %entry ]
  ret ptr %p
body:
  call void @use(ptr %x)
  ret ptr null
}

define i64 @call_arr(ptr %t, i64 %n) {
  %v = call i64 @arr.ws(ptr %t, i64 %n)
  ret i64 %v
}
define i64 @call_reads(ptr %t, i64 %n) {
  %v = call i64 @reads.ws(ptr %t, i64 %n)
  ret i64 %v
}
define ptr @call_returns(ptr %t, i64 %n) {
  %v = call ptr @returns.ws(ptr %t, i64 %n)
  ret ptr %v
}
define ptr @call_phi(ptr %t, i64 %n) {
  %v = call ptr @phi.ws(ptr %t, i64 %n)
  ret ptr %v
}

attributes #0 = { "ws-clone" }
