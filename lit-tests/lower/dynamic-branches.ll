; Spawns on two branches that merge before the sync: which one is
; outstanding is known only at run time.  The sync pops slots until the
; tail is back at the tail the function started with, and a slot whose
; task no thief took is run by comparing the thunk stored in it.  The
; live-ins fit in the payload: no frame descriptor, no stack save.  The
; results go through the pointer the task captured (a value result needs a
; sync that knows its spawns).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

; Nothing here unwinds, as in C: the exception paths are checked by
; invoke-resume.ll and language/exceptions.cpp.
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64) nounwind

define i64 @branchy(i1 %c, i64 %x) nounwind {
entry:
  %a = alloca i64
  br i1 %c, label %then, label %else
then:
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %r1 = call i64 @f(i64 %x)
  store i64 %r1, ptr %a
  call void @__ws_spawn_end()
  br label %join
else:
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %y = add i64 %x, 1
  %r2 = call i64 @f(i64 %y)
  store i64 %r2, ptr %a
  call void @__ws_spawn_end()
  br label %join
join:
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
}

; CHECK: %ws.task.branchy.ws.0 = type { i64, ptr }
; CHECK: %ws.task.branchy.ws.1 = type { i64, ptr }
; CHECK-LABEL: define internal i64 @branchy.ws(ptr %ws.tail, i1 %c, i64 %x)
; CHECK:       entry:
; CHECK-NOT:     %ws.frame
; CHECK-NOT:     stacksave
; CHECK:       then:
; CHECK:         store ptr %a, ptr
; CHECK:         store volatile ptr @__ws_thunk.branchy.ws.0, ptr [[S0:%.*]], align 64
; CHECK-NEXT:    call void @__ws_push_ffmb(ptr [[S0]])
; CHECK:       else:
; CHECK:         store ptr %a, ptr
; CHECK:         store volatile ptr @__ws_thunk.branchy.ws.1, ptr [[S1:%.*]], align 64
; CHECK-NEXT:    call void @__ws_push_ffmb(ptr [[S1]])
; CHECK:       ws.sync:
; CHECK-NEXT:    [[TOP:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    [[EMPTY:%.*]] = icmp eq ptr [[TOP]], %ws.tail
; CHECK-NEXT:    br i1 [[EMPTY]], label %ws.drained, label %ws.pop
; CHECK:       ws.pop:
; CHECK-NEXT:    %ws.slot = getelementptr inbounds i8, ptr [[TOP]], i64 -64
; CHECK-NEXT:    store ptr %ws.slot, ptr %ws.tail.addr
; CHECK-NEXT:    %ws.stolen = call i32 @__ws_take_ffmb(ptr %ws.slot), !ws.take
; CHECK:       ws.run:
; CHECK-NEXT:    %ws.thunk = load ptr, ptr %ws.slot
; CHECK-NEXT:    [[IS0:%.*]] = icmp eq ptr %ws.thunk, @__ws_thunk.branchy.ws.0
; CHECK-NEXT:    br i1 [[IS0]], label %ws.run.0, label %ws.dispatch
; CHECK:       ws.run.0:
; CHECK:         call void @__ws_body.branchy.ws.0(ptr %ws.slot,
; CHECK-NEXT:    br label %[[RAN0:ws.ran[0-9]*]]
; CHECK:       [[RAN0]]:
; CHECK-NEXT:    br label %ws.sync
; CHECK:       ws.run.1:
; CHECK:         call void @__ws_body.branchy.ws.1(ptr %ws.slot,
; CHECK-NEXT:    br label %[[RAN1:ws.ran[0-9]*]]
; CHECK:       [[RAN1]]:
; CHECK-NEXT:    br label %ws.sync
; CHECK:       ws.join:
; CHECK-NEXT:    {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr %ws.slot)
; CHECK-NEXT:    br label %ws.sync
; CHECK:       ws.drained:
; CHECK-NOT:     stackrestore
; CHECK:         br label %ws.synced
; CHECK:       ws.synced:
; CHECK-NEXT:    %v = load i64, ptr %a
; CHECK-NEXT:    ret i64 %v
; CHECK-LABEL: define internal void @__ws_body.branchy.ws.0(ptr %ws.tail, i64 %x, ptr %a)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %r1 = call i64 @f(i64 %x)
; CHECK-NEXT:    store i64 %r1, ptr %a
; CHECK-NEXT:    ret void
