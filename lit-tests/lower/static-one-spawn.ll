; fib's shape: one spawn, one sync.  fib becomes an entry point that asks
; the runtime for the tail once and calls the clone fib.ws, which takes the
; tail as its hidden first argument.  The spawn writes the task into the
; slot at the tail (the live-in in the payload, the thunk in `run`) and
; pushes it; the recursive call in the parent goes to the clone with the
; next slot.  Every sync sees the same outstanding spawn, so the sync takes
; back the slot below the tail and, unstolen, calls the body with the
; spawn's own SSA arguments.  The result is a single store of the call's
; value: the body returns it and the parent stores it at the sync, from
; registers, or from the slot's payload after a steal.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s
; With the tail in registers the slots are plain offsets from the tail.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,function(mem2reg,instcombine)' -S %s | FileCheck %s --check-prefix=SSA

; Nothing here unwinds, as in C: the exception paths are checked by
; invoke-resume.ll and language/exceptions.cpp.
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()

define i64 @fib(i64 %n) nounwind {
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

; CHECK: %ws.task.fib.ws.0 = type { i64 }

; The entry point: the only place that asks for the tail.
; CHECK-LABEL: define i64 @fib(i64 %0)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %ws.closure = alloca { i64, i64 }
; CHECK-NEXT:    %ws.tail = call ptr @__ws_tail()
; CHECK-NEXT:    [[OWN:%.*]] = icmp ne ptr %ws.tail, null
; CHECK-NEXT:    br i1 [[OWN]], label %ws.run, label %ws.submit
; CHECK:       ws.run:
; CHECK-NEXT:    [[R:%.*]] = call i64 @fib.ws(ptr %ws.tail, i64 %0)
; CHECK-NEXT:    ret i64 [[R]]

; CHECK-LABEL: define internal i64 @fib.ws(ptr %ws.tail, i64 %n)
; CHECK-SAME:    unnamed_addr [[CLONE:#[0-9]+]]
; CHECK-NOT:     __ws_tail()
; CHECK:       leaf:
; CHECK-NEXT:    ret i64 %n
; CHECK:       rec:
; CHECK-NEXT:    %n1 = sub i64 %n, 1
; CHECK-NEXT:    [[SLOT:%ws.tail[0-9]*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    [[NEXT:%.*]] = getelementptr inbounds i8, ptr [[SLOT]], i64 64
; CHECK-NEXT:    store ptr [[NEXT]], ptr %ws.tail.addr
; CHECK-NEXT:    [[PAYLOAD:%.*]] = getelementptr inbounds i8, ptr [[SLOT]], i64 16
; CHECK-NEXT:    [[ARG:%.*]] = getelementptr inbounds %ws.task.fib.ws.0, ptr [[PAYLOAD]], i32 0, i32 0
; CHECK-NEXT:    store i64 %n1, ptr [[ARG]]
; CHECK-NEXT:    store volatile ptr @__ws_thunk.fib.ws.0, ptr [[SLOT]], align 64, !ws.store
; CHECK-NEXT:    call void @__ws_push_ffmb(ptr [[SLOT]])
; CHECK-NEXT:    %n2 = sub i64 %n, 2
; CHECK-NEXT:    [[CUR:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    %b = call i64 @fib.ws(ptr [[CUR]], i64 %n2)
; CHECK-NEXT:    [[TOP:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    %ws.slot = getelementptr inbounds i8, ptr [[TOP]], i64 -64
; CHECK-NEXT:    store ptr %ws.slot, ptr %ws.tail.addr
; CHECK-NEXT:    %ws.stolen = call i32 @__ws_take_ffmb(ptr %ws.slot), !ws.take
; CHECK-NEXT:    [[ISSTOLEN:%.*]] = icmp ne i32 %ws.stolen, 0
; CHECK-NEXT:    br i1 [[ISSTOLEN]], label %ws.join, label %ws.run, !prof
; CHECK:       ws.run:
; CHECK-NEXT:    [[V:%.*]] = call i64 @__ws_body.fib.ws.0(ptr %ws.slot, i64 %n1)
; CHECK-NEXT:    store i64 [[V]], ptr %a
; CHECK-NEXT:    br label %ws.synced
; CHECK:       ws.join:
; CHECK-NEXT:    {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr %ws.slot)
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i8, ptr %ws.slot, i64 16
; CHECK-NEXT:    %ws.stolen.result = load i64, ptr [[P]]
; CHECK-NEXT:    store i64 %ws.stolen.result, ptr %a
; CHECK-NEXT:    br label %ws.synced
; CHECK:       ws.synced:
; CHECK-NEXT:    %av = load i64, ptr %a

; The task: the spawned call, now of the clone with the tail it runs on;
; it returns the value, marked for ws-tre.
; CHECK-LABEL: define internal i64 @__ws_body.fib.ws.0(ptr %ws.tail, i64 %n1)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %r = call i64 @fib.ws(ptr %ws.tail, i64 %n1), !ws.sync.call
; CHECK-NEXT:    ret i64 %r

; What a thief runs: the live-in comes out of the payload, the body runs on
; the thief's tail, the result goes into the payload.
; CHECK-LABEL: define internal void @__ws_thunk.fib.ws.0(ptr %0, ptr %1)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[TP:%.*]] = getelementptr inbounds i8, ptr %0, i64 16
; CHECK-NEXT:    [[TA:%.*]] = getelementptr inbounds %ws.task.fib.ws.0, ptr [[TP]], i32 0, i32 0
; CHECK-NEXT:    [[TN:%.*]] = load i64, ptr [[TA]]
; CHECK-NEXT:    [[TR:%.*]] = call i64 @__ws_body.fib.ws.0(ptr %1, i64 [[TN]])
; CHECK-NEXT:    [[TP2:%.*]] = getelementptr inbounds i8, ptr %0, i64 16
; CHECK-NEXT:    store i64 [[TR]], ptr [[TP2]]
; CHECK-NEXT:    ret void

; CHECK: attributes [[CLONE]] = { {{.*}}"ws-clone" }

; SSA-LABEL: define internal i64 @fib.ws(
; SSA:       rec:
; SSA:         [[NEXT:%.*]] = getelementptr inbounds i8, ptr %ws.tail, i64 64
; SSA:         store volatile ptr @__ws_thunk.fib.ws.0, ptr %ws.tail, align 64
; SSA-NEXT:    call void @__ws_push_ffmb(ptr nonnull %ws.tail)
; SSA:         %b = call i64 @fib.ws(ptr nonnull [[NEXT]], i64 %n2)
; SSA-NEXT:    %ws.stolen = call i32 @__ws_take_ffmb(ptr nonnull %ws.tail), !ws.take
; SSA:       ws.run:
; SSA-NEXT:    call i64 @__ws_body.fib.ws.0(ptr nonnull %ws.tail, i64 %n1)
; SSA:       ws.join:
; SSA-NEXT:    {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr nonnull %ws.tail)
