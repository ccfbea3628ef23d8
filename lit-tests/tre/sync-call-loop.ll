; ws-tre: the spawned self-recursive call that a sync makes when no thief
; took the task (the call marked !ws.sync.call) is followed by a join point
; shared with the stolen path, so TailCallElim alone leaves it a call.
; ws-tre copies the join point's few instructions and the return into the
; unstolen path and runs TailCallElim: the call becomes the loop back to
; the function's start, the result an accumulator; the stolen path keeps
; its return.
; RUN: %opt -load-pass-plugin=%plugin -passes='function(ws-tre)' -S %s | FileCheck %s
; Without ws-tre the call stays.
; RUN: %opt -passes='function(tailcallelim)' -S %s | FileCheck %s --check-prefix=PLAIN

declare void @__ws_push_thep(ptr)
declare i32 @__ws_take_thep(ptr)
declare void @__ws_join(ptr)
declare i64 @work(i64)

; sum(n) = sum(n - 1) + work(n), the first half spawned.
define internal i64 @sum.ws(ptr %ws.tail, i64 %n) #0 {
entry:
  %small = icmp slt i64 %n, 1
  br i1 %small, label %leaf, label %rec
leaf:
  ret i64 0
rec:
  %n1 = sub i64 %n, 1
  call void @__ws_push_thep(ptr %ws.tail)
  %b = call i64 @work(i64 %n)
  %ws.stolen = call i32 @__ws_take_thep(ptr %ws.tail), !ws.take !0
  %stolen = icmp ne i32 %ws.stolen, 0
  br i1 %stolen, label %ws.join, label %ws.run
ws.run:
  %r = call i64 @sum.ws(ptr %ws.tail, i64 %n1), !ws.sync.call !0
  br label %ws.synced
ws.join:
  call void @__ws_join(ptr %ws.tail)
  %payload = getelementptr inbounds i8, ptr %ws.tail, i64 16
  %rs = load i64, ptr %payload
  br label %ws.synced
ws.synced:
  %a = phi i64 [ %r, %ws.run ], [ %rs, %ws.join ]
  %s = add i64 %a, %b
  ret i64 %s
}

; CHECK-LABEL: define internal i64 @sum.ws(ptr %ws.tail, i64 %n)
; CHECK-NOT:     call i64 @sum.ws(
; CHECK:       tailrecurse:
; CHECK-NEXT:    %accumulator.tr = phi i64 [ 0, %entry ], [ [[ACC:%.*]], %ws.run ]
; CHECK-NEXT:    %n.tr = phi i64 [ %n, %entry ], [ %n1, %ws.run ]
; CHECK:       ws.run:
; CHECK-NEXT:    [[ACC]] = add i64 %accumulator.tr, %b
; CHECK-NEXT:    br label %tailrecurse
; CHECK:       ws.join:
; CHECK-NEXT:    tail call void @__ws_join(ptr %ws.tail)
; CHECK:         ret i64
; CHECK-NOT:     call i64 @sum.ws(
; CHECK:       }

; PLAIN-LABEL: define internal i64 @sum.ws(
; PLAIN:       ws.run:
; PLAIN-NEXT:    %r = tail call i64 @sum.ws(ptr %ws.tail, i64 %n1), !ws.sync.call

; Only a clone ws-lower made is touched, and only its sync calls.
define internal i64 @not_a_clone(ptr %ws.tail, i64 %n) {
entry:
  %small = icmp slt i64 %n, 1
  br i1 %small, label %leaf, label %rec
leaf:
  ret i64 0
rec:
  %n1 = sub i64 %n, 1
  %ws.stolen = call i32 @__ws_take_thep(ptr %ws.tail), !ws.take !0
  %stolen = icmp ne i32 %ws.stolen, 0
  br i1 %stolen, label %ws.join, label %ws.run
ws.run:
  %r = call i64 @not_a_clone(ptr %ws.tail, i64 %n1), !ws.sync.call !0
  br label %ws.synced
ws.join:
  br label %ws.synced
ws.synced:
  %a = phi i64 [ %r, %ws.run ], [ 0, %ws.join ]
  %s = add i64 %a, %n
  ret i64 %s
}

define internal i64 @unmarked.ws(ptr %ws.tail, i64 %n) #0 {
entry:
  %small = icmp slt i64 %n, 1
  br i1 %small, label %leaf, label %rec
leaf:
  ret i64 0
rec:
  %n1 = sub i64 %n, 1
  %ws.stolen = call i32 @__ws_take_thep(ptr %ws.tail), !ws.take !0
  %stolen = icmp ne i32 %ws.stolen, 0
  br i1 %stolen, label %ws.join, label %ws.run
ws.run:
  %r = call i64 @unmarked.ws(ptr %ws.tail, i64 %n1)
  br label %ws.synced
ws.join:
  br label %ws.synced
ws.synced:
  %a = phi i64 [ %r, %ws.run ], [ 0, %ws.join ]
  %s = add i64 %a, %n
  ret i64 %s
}

; CHECK-LABEL: define internal i64 @not_a_clone(
; CHECK:       ws.run:
; CHECK-NEXT:    %r = call i64 @not_a_clone(ptr %ws.tail, i64 %n1), !ws.sync.call
; CHECK-LABEL: define internal i64 @unmarked.ws(
; CHECK:       ws.run:
; CHECK-NEXT:    %r = call i64 @unmarked.ws(ptr %ws.tail, i64 %n1)

attributes #0 = { "ws-clone" }
!0 = !{}
