; ws-sync-unroll: a sync loop (the loop ID carries !"ws.sync.loop", which
; ws-lower puts there) with a constant count of at most 16 and a small body
; gets llvm.loop.unroll.full, which the optimizer's unroller honours.  A
; longer loop, one whose count is not a constant, one that is not a sync
; loop, and one with an unroll request of its own are left alone.
; RUN: %opt -load-pass-plugin=%plugin -passes='function(ws-sync-unroll)' -S %s | FileCheck %s
; Then the unroller takes the nine-task loop apart.
; RUN: %opt -load-pass-plugin=%plugin -passes='function(ws-sync-unroll,loop-unroll<O2>,simplifycfg)' -S %s | FileCheck %s --check-prefix=UNROLLED
; A request nothing carried out is taken back (ws-sync-unroll<strip>), so
; that no pass warns "loop not unrolled" about a loop the user never asked
; to unroll; a request of the user's stays.
; RUN: %opt -load-pass-plugin=%plugin -passes='function(ws-sync-unroll,ws-sync-unroll<strip>)' -S %s | FileCheck %s --check-prefix=STRIP

declare void @child(ptr)

define void @nine(ptr %base) {
entry:
  %top = getelementptr inbounds i8, ptr %base, i64 576
  br label %head
head:
  %t = phi ptr [ %top, %entry ], [ %slot, %body ]
  %done = icmp eq ptr %t, %base
  br i1 %done, label %exit, label %body
body:
  %slot = getelementptr inbounds i8, ptr %t, i64 -64
  call void @child(ptr %slot)
  br label %head, !llvm.loop !0
exit:
  ret void
}
; CHECK-LABEL: define void @nine(
; CHECK: br label %head, !llvm.loop [[NINE:![0-9]+]]
; UNROLLED-LABEL: define void @nine(
; UNROLLED-COUNT-9: call void @child(
; UNROLLED-NOT: call void @child(
; UNROLLED: ret void

define void @twenty(ptr %base) {
entry:
  %top = getelementptr inbounds i8, ptr %base, i64 1280
  br label %head
head:
  %t = phi ptr [ %top, %entry ], [ %slot, %body ]
  %done = icmp eq ptr %t, %base
  br i1 %done, label %exit, label %body
body:
  %slot = getelementptr inbounds i8, ptr %t, i64 -64
  call void @child(ptr %slot)
  br label %head, !llvm.loop !2
exit:
  ret void
}
; CHECK-LABEL: define void @twenty(
; CHECK: br label %head, !llvm.loop [[TWENTY:![0-9]+]]

define void @unknown(ptr %base, ptr %top) {
entry:
  br label %head
head:
  %t = phi ptr [ %top, %entry ], [ %slot, %body ]
  %done = icmp eq ptr %t, %base
  br i1 %done, label %exit, label %body
body:
  %slot = getelementptr inbounds i8, ptr %t, i64 -64
  call void @child(ptr %slot)
  br label %head, !llvm.loop !3
exit:
  ret void
}
; CHECK-LABEL: define void @unknown(
; CHECK: br label %head, !llvm.loop [[UNKNOWN:![0-9]+]]

define void @user(ptr %base) {
entry:
  %top = getelementptr inbounds i8, ptr %base, i64 576
  br label %head
head:
  %t = phi ptr [ %top, %entry ], [ %slot, %body ]
  %done = icmp eq ptr %t, %base
  br i1 %done, label %exit, label %body
body:
  %slot = getelementptr inbounds i8, ptr %t, i64 -64
  call void @child(ptr %slot)
  br label %head, !llvm.loop !4
exit:
  ret void
}
; CHECK-LABEL: define void @user(
; CHECK: br label %head, !llvm.loop [[USER:![0-9]+]]

define void @pragma(ptr %base) {
entry:
  %top = getelementptr inbounds i8, ptr %base, i64 576
  br label %head
head:
  %t = phi ptr [ %top, %entry ], [ %slot, %body ]
  %done = icmp eq ptr %t, %base
  br i1 %done, label %exit, label %body
body:
  %slot = getelementptr inbounds i8, ptr %t, i64 -64
  call void @child(ptr %slot)
  br label %head, !llvm.loop !5
exit:
  ret void
}
; CHECK-LABEL: define void @pragma(
; CHECK: br label %head, !llvm.loop [[PRAGMA:![0-9]+]]

; CHECK: [[NINE]] = distinct !{[[NINE]], [[MARK:![0-9]+]], [[FULL:![0-9]+]]}
; CHECK: [[MARK]] = !{!"ws.sync.loop"}
; CHECK: [[FULL]] = !{!"llvm.loop.unroll.full"}
; CHECK: [[TWENTY]] = distinct !{[[TWENTY]], [[MARK]]}
; CHECK: [[UNKNOWN]] = distinct !{[[UNKNOWN]], [[MARK]]}
; CHECK: [[USER]] = distinct !{[[USER]]}
; CHECK: [[PRAGMA]] = distinct !{[[PRAGMA]], [[MARK]], [[DISABLE:![0-9]+]]}
; CHECK: [[DISABLE]] = !{!"llvm.loop.unroll.disable"}

!0 = distinct !{!0, !1}
!1 = !{!"ws.sync.loop"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !1}
!4 = distinct !{!4}
!5 = distinct !{!5, !1, !6}
!6 = !{!"llvm.loop.unroll.disable"}

; STRIP-NOT: !"llvm.loop.unroll.full"
; STRIP: !"llvm.loop.unroll.disable"
; STRIP-NOT: !"llvm.loop.unroll.full"
