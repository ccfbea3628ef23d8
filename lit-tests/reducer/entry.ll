; An entry point into spawning code asks __ws_tail for the tail; on a
; thread the workers do not run it is null, and the call goes to the
; workers: the arguments into a closure in the frame, __ws_submit with a
; thunk that calls the clone with a worker's tail and leaves the result in
; the closure.  A call that may throw keeps what it threw in the closure
; too: the thunk catches it on the worker, and the entry point throws it
; again on the calling thread.  A nounwind one (C) has no such field.  A
; variadic spawning function cannot be handed over: it asks
; __ws_tail_owned, which stops the program there.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @work(i64, double)

define i64 @sum(i64 %n, double %x) {
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @work)
  %r = call i64 @work(i64 %n, double %x)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
}

define i64 @csum(i64 %n, double %x) nounwind {
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @work)
  %r = call i64 @work(i64 %n, double %x)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
}

define void @vsum(i64 %n, ...) {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @work)
  %r = call i64 @work(i64 %n, double 1.0)
  call void @__ws_spawn_end()
  ret void
}

; CHECK-LABEL: define i64 @sum(i64 %0, double %1)
; CHECK:         %ws.closure = alloca { i64, double, i64, ptr }
; CHECK-NEXT:    %ws.tail = call ptr @__ws_tail()
; CHECK-NEXT:    [[OWN:%.*]] = icmp ne ptr %ws.tail, null
; CHECK-NEXT:    br i1 [[OWN]], label %ws.run, label %ws.submit
; CHECK:       ws.run:
; CHECK-NEXT:    [[R:%.*]] = call i64 @sum.ws(ptr %ws.tail, i64 %0, double %1)
; CHECK-NEXT:    ret i64 [[R]]
; CHECK:       ws.submit:
; CHECK-NEXT:    [[N:%.*]] = getelementptr inbounds { i64, double, i64, ptr }, ptr %ws.closure, i32 0, i32 0
; CHECK-NEXT:    store i64 %0, ptr [[N]]
; CHECK-NEXT:    [[X:%.*]] = getelementptr inbounds { i64, double, i64, ptr }, ptr %ws.closure, i32 0, i32 1
; CHECK-NEXT:    store double %1, ptr [[X]]
; CHECK-NEXT:    [[EP:%.*]] = getelementptr inbounds { i64, double, i64, ptr }, ptr %ws.closure, i32 0, i32 3
; CHECK-NEXT:    store ptr null, ptr [[EP]]
; CHECK-NEXT:    call void @__ws_submit(ptr @sum.ws.submitted, ptr %ws.closure)
; CHECK-NEXT:    [[EP2:%.*]] = getelementptr inbounds { i64, double, i64, ptr }, ptr %ws.closure, i32 0, i32 3
; CHECK-NEXT:    [[E:%.*]] = load ptr, ptr [[EP2]]
; CHECK-NEXT:    [[T:%.*]] = icmp ne ptr [[E]], null
; CHECK-NEXT:    br i1 [[T]], label %ws.submitted.rethrow, label %ws.submitted.done
; CHECK:       ws.submitted.rethrow:
; CHECK-NEXT:    call void @__ws_exception_rethrow(ptr [[E]])
; CHECK-NEXT:    unreachable
; CHECK:       ws.submitted.done:
; CHECK-NEXT:    [[RP:%.*]] = getelementptr inbounds { i64, double, i64, ptr }, ptr %ws.closure, i32 0, i32 2
; CHECK-NEXT:    [[RV:%.*]] = load i64, ptr [[RP]]
; CHECK-NEXT:    ret i64 [[RV]]

; CHECK-LABEL: define i64 @csum(i64 %0, double %1)
; CHECK:         %ws.closure = alloca { i64, double, i64 }
; CHECK:       ws.submit:
; CHECK:         call void @__ws_submit(ptr @csum.ws.submitted, ptr %ws.closure)
; CHECK-NEXT:    [[RP:%.*]] = getelementptr inbounds { i64, double, i64 }, ptr %ws.closure, i32 0, i32 2
; CHECK-NEXT:    [[RV:%.*]] = load i64, ptr [[RP]]
; CHECK-NEXT:    ret i64 [[RV]]

; CHECK-LABEL: define void @vsum(i64 %n, ...)
; CHECK:         %ws.entry.tail = call ptr @__ws_tail_owned()

; CHECK-LABEL: define internal void @csum.ws.submitted(ptr %0, ptr %1)
; CHECK:         [[R:%.*]] = call i64 @csum.ws(

; CHECK-LABEL: define internal void @sum.ws.submitted(ptr %0, ptr %1)
; CHECK:         [[N:%.*]] = load i64, ptr
; CHECK:         [[X:%.*]] = load double, ptr
; CHECK-NEXT:    [[R:%.*]] = invoke i64 @sum.ws(ptr %1, i64 [[N]], double [[X]])
; CHECK-NEXT:            to label %returned unwind label %ws.caught
; CHECK:       returned:
; CHECK-NEXT:    [[RP:%.*]] = getelementptr inbounds { i64, double, i64, ptr }, ptr %0, i32 0, i32 2
; CHECK-NEXT:    store i64 [[R]], ptr [[RP]]
; CHECK-NEXT:    ret void
; CHECK:       ws.caught:
; CHECK-NEXT:    [[LP:%.*]] = landingpad { ptr, i32 }
; CHECK-NEXT:            catch ptr null
; CHECK-NEXT:    [[EXN:%.*]] = extractvalue { ptr, i32 } [[LP]], 0
; CHECK-NEXT:    [[CAP:%.*]] = call ptr @__ws_exception_capture(ptr [[EXN]])
; CHECK-NEXT:    [[EP:%.*]] = getelementptr inbounds { i64, double, i64, ptr }, ptr %0, i32 0, i32 3
; CHECK-NEXT:    store ptr [[CAP]], ptr [[EP]]
; CHECK-NEXT:    ret void

