; A spawning function becomes an entry point plus a clone.  The clone
; <name>.ws gets the body, the parameter attributes shifted by one, and the
; owner's tail as a hidden first argument; the original keeps its name,
; linkage and address (a function pointer, another module) and asks
; __ws_tail for the tail before calling the clone (NULL on a thread the
; workers do not run: it submits the call to them).  Calls from spawning
; code go straight to the clone with the tail as it is at the call, the
; spawned call included (from its task body, with the tail the body runs
; on); calls from other code go through the entry point.  A variadic
; function is not cloned (its va_list cannot be forwarded): it asks
; __ws_tail_owned for the tail at entry (fatal on such a thread) and is
; called as it is.  A function that only syncs has nothing to take back:
; its syncs go, and it gets no clone.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %s | FileCheck %s --implicit-check-not=@va.ws

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.P = type { i64, i64, i64 }

; Nothing here unwinds, as in C: the exception paths are checked by
; invoke-resume.ll and language/exceptions.cpp.
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64) nounwind

@fp = global ptr @sum

define i64 @sum(ptr byval(%struct.P) align 8 %p, i64 noundef %n) nounwind {
entry:
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %r = call i64 @f(i64 %n)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  %b = call i64 @sum(ptr byval(%struct.P) align 8 %p, i64 noundef 1)
  call void @__ws_sync()
  %v = load i64, ptr %a
  %s = add i64 %v, %b
  ret i64 %s
}

define i64 @va(i64 %n, ...) nounwind {
entry:
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f)
  %r = call i64 @f(i64 %n)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  call void @__ws_sync()
  %v = load i64, ptr %a
  ret i64 %v
}

define i64 @caller(ptr %p, i64 %n) nounwind {
entry:
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @sum)
  %r = call i64 @sum(ptr byval(%struct.P) align 8 %p, i64 noundef %n)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  %w = call i64 (i64, ...) @va(i64 %n, i32 7)
  %u = call i64 @sum(ptr byval(%struct.P) align 8 %p, i64 noundef 2)
  call void @__ws_sync()
  %v = load i64, ptr %a
  %s = add i64 %v, %w
  %t = add i64 %s, %u
  ret i64 %t
}

define i64 @only_syncs(ptr %p) nounwind {
  %x = call i64 @sum(ptr byval(%struct.P) align 8 %p, i64 noundef 3)
  call void @__ws_sync()
  ret i64 %x
}

; The address taken is the entry point's.
; CHECK: @fp = global ptr @sum

; CHECK-LABEL: define i64 @sum(ptr byval(%struct.P) align 8 %0, i64 noundef %1) {{.*}}{
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %ws.closure = alloca { ptr, i64, i64 }
; CHECK-NEXT:    %ws.tail = call ptr @__ws_tail()
; CHECK-NEXT:    [[OWN:%.*]] = icmp ne ptr %ws.tail, null
; CHECK-NEXT:    br i1 [[OWN]], label %ws.run, label %ws.submit
; CHECK:       ws.run:
; CHECK-NEXT:    [[R:%.*]] = call i64 @sum.ws(ptr %ws.tail, ptr byval(%struct.P) align 8 %0, i64 noundef %1)
; CHECK-NEXT:    ret i64 [[R]]
; CHECK:       ws.submit:
; CHECK:         call void @__ws_submit(ptr @sum.ws.submitted, ptr %ws.closure)
; CHECK:         ret i64
; CHECK-NEXT:  }

; CHECK-LABEL: define i64 @va(i64 %n, ...) {{.*}}{
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %ws.tail.addr = alloca ptr
; CHECK-NEXT:    %a = alloca i64
; CHECK-NEXT:    %ws.entry.tail = call ptr @__ws_tail_owned()
; CHECK-NEXT:    store ptr %ws.entry.tail, ptr %ws.tail.addr
; CHECK:         call void @__ws_push_ffmb(
; CHECK:         call i32 @__ws_take_ffmb(

; CHECK-LABEL: define i64 @only_syncs(ptr %p) {{.*}}{
; CHECK-NEXT:    %x = call i64 @sum(ptr byval(%struct.P) align 8 %p, i64 noundef 3)
; CHECK-NEXT:    ret i64 %x

; CHECK-LABEL: define internal i64 @caller.ws(ptr %ws.tail, ptr %p, i64 %n) unnamed_addr
; CHECK:         call void @__ws_push_ffmb(ptr [[SLOT:%.*]])
; The variadic function is called as it is; the clone of @sum gets the
; tail above the outstanding spawn.
; CHECK-NEXT:    %w = call i64 (i64, ...) @va(i64 %n, i32 7)
; CHECK-NEXT:    [[CUR:%.*]] = load ptr, ptr %ws.tail.addr
; CHECK-NEXT:    %u = call i64 @sum.ws(ptr [[CUR]], ptr byval(%struct.P) align 8 %p, i64 noundef 2)

; CHECK-LABEL: define internal i64 @sum.ws(ptr %ws.tail, ptr byval(%struct.P) align 8 %p, i64 noundef %n) unnamed_addr
; CHECK:         %b = call i64 @sum.ws(ptr {{%.*}}, ptr byval(%struct.P) align 8 %p, i64 noundef 1)

; The spawned call of @sum goes to its clone on the tail the body runs on.
; CHECK-LABEL: define internal i64 @__ws_body.caller.ws.0(ptr %ws.tail, ptr noalias %p, i64 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %r = call i64 @sum.ws(ptr %ws.tail, ptr byval(%struct.P) align 8 %p, i64 noundef %n), !ws.sync.call
