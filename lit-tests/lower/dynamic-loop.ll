; Spawns in a loop: the number outstanding at the sync is unknown.  Each
; loop spawn gets a fresh descriptor on the stack, linked into a chain; the
; sync pops until the chain is empty, runs unstolen tasks by dispatching on
; the thunk, and gives the stack back when drained.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @sq(i64)
declare i64 @cube(i64)
define void @loop(ptr %out, i64 %n) {
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %done = icmp eq i64 %i, %n
  br i1 %done, label %exit, label %body
body:
  %p = getelementptr i64, ptr %out, i64 %i
  call void (ptr, ...) @__ws_spawn_begin(ptr %p, ptr @sq)
  %r = call i64 @sq(i64 %i)
  store i64 %r, ptr %p
  call void @__ws_spawn_end()
  %i1 = add i64 %i, 1
  br label %head
exit:
  %q = getelementptr i64, ptr %out, i64 %n
  call void (ptr, ...) @__ws_spawn_begin(ptr %q, ptr @cube)
  %c = call i64 @cube(i64 %n)
  store i64 %c, ptr %q
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}

; CHECK-LABEL: define void @loop(
; CHECK:       entry:
; CHECK-NEXT:    %ws.desc = alloca %ws.desc.loop.1, align 16
; CHECK-NEXT:    %ws.last.addr = alloca ptr
; CHECK:         store ptr null, ptr %ws.last.addr
; CHECK:         %ws.stack = call ptr @llvm.stacksave.p0()
; CHECK:       body:
; CHECK:         %ws.desc1 = alloca %ws.desc.loop.0, align 16
; CHECK:         store volatile ptr @__ws_thunk.loop.0
; CHECK:         %ws.last = load ptr, ptr %ws.last.addr
; CHECK-NEXT:    store ptr %ws.last, ptr
; CHECK-NEXT:    store ptr %ws.desc1, ptr %ws.last.addr
; CHECK-NEXT:    call void @__ws_push_thep(ptr %ws.worker, ptr %ws.desc1)
; CHECK:       ws.sync:
; CHECK-NEXT:    %[[D:.*]] = load ptr, ptr %ws.last.addr
; CHECK-NEXT:    [[EMPTY:%.*]] = icmp eq ptr %[[D]], null
; CHECK-NEXT:    br i1 [[EMPTY]], label %ws.drained, label %ws.pop
; CHECK:       ws.pop:
; CHECK:         call ptr @__ws_take_thep(ptr %ws.worker), !ws.take
; CHECK:       ws.run:
; CHECK-NEXT:    %ws.thunk = load ptr, ptr %[[D]]
; CHECK-NEXT:    [[IS0:%.*]] = icmp eq ptr %ws.thunk, @__ws_thunk.loop.0
; CHECK:         call void @__ws_body.loop.0(
; CHECK:         call void @__ws_body.loop.1(
; CHECK:       ws.stolen:
; CHECK-NEXT:    call void @__ws_join_stolen(ptr %ws.worker, ptr %[[D]])
; CHECK:       ws.drained:
; CHECK-NEXT:    call void @llvm.stackrestore.p0(ptr %ws.stack)
