; Spawns in a loop: how many are outstanding at the sync is unknown.  Each
; iteration writes its task into the next slot (the tail moves up by one
; slot per spawn, nothing is allocated); the sync pops slots until the tail
; is back where the function started, runs unstolen tasks by dispatching on
; the thunk in the slot, and joins stolen ones.
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %t/loop.ll | FileCheck %s --check-prefix=LOOP

; LOOP-LABEL: define internal void @loop.ws(ptr %ws.tail, ptr %out, i64 %n)
; LOOP:       entry:
; LOOP-NOT:     stacksave
; LOOP:       body:
; LOOP-NOT:     alloca
; LOOP:         [[S:%ws.tail[0-9]+]] = load ptr, ptr %ws.tail.addr
; LOOP-NEXT:    [[NEXT:%.*]] = getelementptr inbounds i8, ptr [[S]], i64 64
; LOOP-NEXT:    store ptr [[NEXT]], ptr %ws.tail.addr
; LOOP-NEXT:    [[PAYLOAD:%.*]] = getelementptr inbounds i8, ptr [[S]], i64 16
; LOOP-NEXT:    [[F0:%.*]] = getelementptr inbounds %ws.task.loop.ws.0, ptr [[PAYLOAD]], i32 0, i32 0
; LOOP-NEXT:    store i64 %i, ptr [[F0]]
; LOOP-NEXT:    [[F1:%.*]] = getelementptr inbounds %ws.task.loop.ws.0, ptr [[PAYLOAD]], i32 0, i32 1
; LOOP-NEXT:    store ptr %p, ptr [[F1]]
; LOOP-NEXT:    store volatile ptr @__ws_thunk.loop.ws.0, ptr [[S]], align 64, !ws.store
; LOOP-NEXT:    call void @__ws_push_ffmb(ptr [[S]])
; LOOP:       ws.sync:
; LOOP-NEXT:    [[TOP:%.*]] = load ptr, ptr %ws.tail.addr
; LOOP-NEXT:    [[EMPTY:%.*]] = icmp eq ptr [[TOP]], %ws.tail
; LOOP-NEXT:    br i1 [[EMPTY]], label %ws.drained, label %ws.pop
; LOOP:       ws.pop:
; LOOP-NEXT:    %ws.slot = getelementptr inbounds i8, ptr [[TOP]], i64 -64
; LOOP-NEXT:    store ptr %ws.slot, ptr %ws.tail.addr
; LOOP-NEXT:    %ws.stolen = call i32 @__ws_take_ffmb(ptr %ws.slot), !ws.take
; LOOP-NEXT:    [[ISSTOLEN:%.*]] = icmp ne i32 %ws.stolen, 0
; LOOP-NEXT:    br i1 [[ISSTOLEN]], label %ws.join, label %ws.run
; LOOP:       ws.run:
; LOOP-NEXT:    %ws.thunk = load ptr, ptr %ws.slot
; LOOP-NEXT:    [[IS0:%.*]] = icmp eq ptr %ws.thunk, @__ws_thunk.loop.ws.0
; LOOP-NEXT:    br i1 [[IS0]], label %ws.run.0, label %ws.dispatch
; LOOP:       ws.run.0:
; LOOP-NEXT:    %ws.views.above = call i32 @__ws_views_above(ptr %ws.slot)
; LOOP:       ws.run.plain:
; LOOP-NEXT:    [[P0:%.*]] = getelementptr inbounds i8, ptr %ws.slot, i64 16
; LOOP-NEXT:    [[A0:%.*]] = getelementptr inbounds %ws.task.loop.ws.0, ptr [[P0]], i32 0, i32 0
; LOOP-NEXT:    [[I0:%.*]] = load i64, ptr [[A0]]
; LOOP-NEXT:    [[A1:%.*]] = getelementptr inbounds %ws.task.loop.ws.0, ptr [[P0]], i32 0, i32 1
; LOOP-NEXT:    [[R0:%.*]] = load ptr, ptr [[A1]]
; LOOP-NEXT:    call void @__ws_body.loop.ws.0(ptr %ws.slot, i64 [[I0]], ptr [[R0]])
; LOOP-NEXT:    br label %ws.ran
; LOOP:       ws.ran:
; LOOP-NEXT:    br label %ws.sync
; LOOP:       ws.run.1:
; LOOP:         call void @__ws_body.loop.ws.1(ptr %ws.slot,
; LOOP-NEXT:    br label %[[RAN1:ws.ran[0-9]+]]
; LOOP:       [[RAN1]]:
; LOOP-NEXT:    br label %ws.sync
; LOOP:       ws.join:
; LOOP-NEXT:    {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr %ws.slot)
; LOOP-NEXT:    br label %ws.sync
; LOOP:       ws.drained:
; LOOP-NEXT:    br label %ws.synced

; Live-ins over the 48 bytes of a payload go to a frame descriptor in the
; spawning frame, and the slot holds a pointer to it.  In a loop each
; spawn needs its own: it is allocated at the spawn, and the stack saved
; at entry is given back once the sync has drained every slot.  Exactly 48
; bytes still fit in the payload.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %t/wide.ll | FileCheck %s --check-prefix=WIDE

; WIDE-DAG: %ws.task.wide.ws.0 = type { i64, i64, i64, i64, i64, i64, i64 }
; WIDE-DAG: %ws.task.wide.ws.1 = type { i64, i64, i64, i64, i64, i64 }
; WIDE-LABEL: define internal void @wide.ws(
; WIDE:       entry:
; WIDE:         %ws.stack = call ptr @llvm.stacksave.p0()
; WIDE:       body:
; WIDE:         [[S:%ws.tail[0-9]+]] = load ptr, ptr %ws.tail.addr
; WIDE:         [[PAYLOAD:%.*]] = getelementptr inbounds i8, ptr [[S]], i64 16
; WIDE-NEXT:    %ws.frame = alloca %ws.task.wide.ws.0, align 16
; WIDE-NEXT:    store ptr %ws.frame, ptr [[PAYLOAD]]
; WIDE:         store i64 %n, ptr
; WIDE-NEXT:    store volatile ptr @__ws_thunk.wide.ws.0, ptr [[S]], align 64
; WIDE-NEXT:    call void @__ws_push_ffmb(ptr [[S]])
; WIDE-NOT:     alloca
; WIDE:         [[S1:%ws.tail[0-9]+]] = load ptr, ptr %ws.tail.addr
; WIDE:         [[PAYLOAD1:%.*]] = getelementptr inbounds i8, ptr [[S1]], i64 16
; WIDE-NEXT:    getelementptr inbounds %ws.task.wide.ws.1, ptr [[PAYLOAD1]], i32 0, i32 0
; WIDE:         store volatile ptr @__ws_thunk.wide.ws.1, ptr [[S1]], align 64
; WIDE:       ws.run:
; WIDE:         [[P:%.*]] = getelementptr inbounds i8, ptr %ws.slot, i64 16
; WIDE-NEXT:    [[FRAME:%.*]] = load ptr, ptr [[P]]
; WIDE-NEXT:    getelementptr inbounds %ws.task.wide.ws.0, ptr [[FRAME]], i32 0, i32 0
; WIDE:         call void @__ws_body.wide.ws.0(ptr %ws.slot,
; WIDE:       ws.drained:
; WIDE-NEXT:    call void @llvm.stackrestore.p0(ptr %ws.stack)
; WIDE-NEXT:    br label %ws.synced
; WIDE-LABEL: define internal void @__ws_thunk.wide.ws.0(ptr %0, ptr %1)
; WIDE-NEXT:  entry:
; WIDE-NEXT:    [[TP:%.*]] = getelementptr inbounds i8, ptr %0, i64 16
; WIDE-NEXT:    [[TF:%.*]] = load ptr, ptr [[TP]]
; WIDE-NEXT:    getelementptr inbounds %ws.task.wide.ws.0, ptr [[TF]], i32 0, i32 0

;--- loop.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; Nothing here unwinds, as in C: the exception paths are checked by
; invoke-resume.ll and language/exceptions.cpp.
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @sq(i64) nounwind
declare i64 @cube(i64) nounwind

define void @loop(ptr %out, i64 %n) nounwind {
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

;--- wide.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @wide7(i64, i64, i64, i64, i64, i64, i64) nounwind
declare void @fits6(i64, i64, i64, i64, i64, i64) nounwind

define void @wide(i64 %n, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e) nounwind {
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %done = icmp eq i64 %i, %n
  br i1 %done, label %exit, label %body
body:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @wide7)
  call void @wide7(i64 %i, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %n)
  call void @__ws_spawn_end()
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @fits6)
  call void @fits6(i64 %i, i64 %a, i64 %b, i64 %c, i64 %d, i64 %e)
  call void @__ws_spawn_end()
  %i1 = add i64 %i, 1
  br label %head
exit:
  call void @__ws_sync()
  ret void
}
