; ws-scale on fib's shape: a frame at entry, the spawn hook before the
; begin marker, the spawned call through a wrapper that the marker now
; names, the sync between its hooks, and at the exits a sync of its own
; before leave (so the implicit sync's children run inside the frame).
; Functions that do not spawn are left alone.  ws-lower then lowers the
; result like any spawn.
; RUN: %opt -load-pass-plugin=%plugin -passes=ws-scale -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-scale,ws-lower<abi-bc=none>' -S %s | FileCheck %s --check-prefix=LOWERED --implicit-check-not='call void (ptr, ...) @__ws_spawn_begin'

; RUN: %opt -load-pass-plugin=%plugin -passes=ws-scale -pass-remarks-analysis=ws-scale -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()

define i64 @fib(i64 %n) {
entry:
  %a = alloca i64
  %small = icmp slt i64 %n, 2
  br i1 %small, label %leaf, label %rec
leaf:
  ret i64 %n
rec:
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @fib)
  %n1 = sub i64 %n, 1
  %r = call i64 @fib(i64 %n1)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  %n2 = sub i64 %n, 2
  %b = call i64 @fib(i64 %n2)
  call void @__ws_sync()
  %av = load i64, ptr %a
  %s = add i64 %av, %b
  ret i64 %s
}

define i64 @serial(i64 %n) {
  call void @__ws_sync()
  ret i64 %n
}

; CHECK-LABEL: define i64 @fib(i64 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %ws.scale.at = alloca [4 x i64]
; CHECK-NEXT:    %a = alloca i64
; CHECK-NEXT:    %ws.scale.frame = call ptr @__ws_scale_enter()
; CHECK:       leaf:
; CHECK-NEXT:    call void @__ws_scale_sync_begin()
; CHECK-NEXT:    call void @__ws_sync()
; CHECK-NEXT:    call void @__ws_scale_leave(ptr %ws.scale.frame)
; CHECK-NEXT:    ret i64 %n
; CHECK:       rec:
; CHECK-NEXT:    %ws.scale.spawner = call ptr @__ws_scale_spawn(ptr %ws.scale.at)
; CHECK-NEXT:    [[SPAN:%.*]] = getelementptr inbounds [4 x i64], ptr %ws.scale.at, i32 0, i32 0
; CHECK-NEXT:    %ws.scale.span = load i64, ptr [[SPAN]]
; CHECK-NEXT:    [[BSPAN:%.*]] = getelementptr inbounds [4 x i64], ptr %ws.scale.at, i32 0, i32 1
; CHECK-NEXT:    %ws.scale.bspan = load i64, ptr [[BSPAN]]
; CHECK-NEXT:    [[TSPAN:%.*]] = getelementptr inbounds [4 x i64], ptr %ws.scale.at, i32 0, i32 2
; CHECK-NEXT:    %ws.scale.tspan = load i64, ptr [[TSPAN]]
; CHECK-NEXT:    [[TBSPAN:%.*]] = getelementptr inbounds [4 x i64], ptr %ws.scale.at, i32 0, i32 3
; CHECK-NEXT:    %ws.scale.tbspan = load i64, ptr [[TBSPAN]]
; CHECK-NEXT:    call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @fib.ws.scale)
; CHECK-NEXT:    %n1 = sub i64 %n, 1
; CHECK-NEXT:    %r = call i64 @fib.ws.scale(i64 %n1, ptr %ws.scale.spawner, i64 %ws.scale.span, i64 %ws.scale.bspan, i64 %ws.scale.tspan, i64 %ws.scale.tbspan)
; CHECK-NEXT:    store i64 %r, ptr %a
; CHECK-NEXT:    call void @__ws_spawn_end()
; CHECK:         %b = call i64 @fib(i64 %n2)
; CHECK-NEXT:    call void @__ws_scale_sync_begin()
; CHECK-NEXT:    call void @__ws_sync()
; CHECK-NEXT:    call void @__ws_scale_sync_end()
; CHECK:         %s = add i64 %av, %b
; CHECK-NEXT:    call void @__ws_scale_sync_begin()
; CHECK-NEXT:    call void @__ws_sync()
; CHECK-NEXT:    call void @__ws_scale_leave(ptr %ws.scale.frame)
; CHECK-NEXT:    ret i64 %s

; CHECK-LABEL: define i64 @serial(i64 %n)
; CHECK-NEXT:    call void @__ws_sync()
; CHECK-NEXT:    ret i64 %n

; CHECK-LABEL: define internal i64 @fib.ws.scale(
; CHECK-SAME:    i64 %0, ptr %1, i64 %2, i64 %3, i64 %4, i64 %5) #[[ATTRS:[0-9]+]]
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %ws.scale.task = call ptr @__ws_scale_task_begin(ptr %1, i64 %2, i64 %3, i64 %4, i64 %5)
; CHECK-NEXT:    [[R:%.*]] = call i64 @fib(i64 %0)
; CHECK-NEXT:    call void @__ws_scale_task_end(ptr %ws.scale.task)
; CHECK-NEXT:    ret i64 [[R]]
; CHECK: attributes #[[ATTRS]] = { alwaysinline }

; ws-lower lowers the spawn of the wrapper like any other (whatever it
; names its pieces): no marker is left, the task calls the wrapper, and the
; hooks stay where they were.
; LOWERED-DAG: call ptr @__ws_scale_enter()
; LOWERED-DAG: call ptr @__ws_scale_spawn(ptr %ws.scale.at)
; LOWERED-DAG: call i64 @fib.ws.scale(i64 %n1, ptr %ws.scale.spawner, i64 %ws.scale.span, i64 %ws.scale.bspan, i64 %ws.scale.tspan, i64 %ws.scale.tbspan)
; LOWERED-DAG: call void @__ws_scale_sync_end()
; LOWERED-DAG: call void @__ws_scale_leave(ptr %ws.scale.frame)

; REMARK: remark: <unknown>:0:0: ws-scale: measuring 1 spawn(s), 1 sync(s) and 2 exit(s) of fib
; REMARK-NOT: serial
