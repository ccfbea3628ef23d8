; Spawns on two branches that merge before the sync: which one is
; outstanding is known only at run time, so the function chains its
; descriptors.  No spawn is in a cycle: the descriptors stay entry allocas
; and the stack is not saved.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64)

define i64 @branchy(i1 %c, i64 %x) {
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

; CHECK-LABEL: define i64 @branchy(
; CHECK:       entry:
; CHECK-DAG:     alloca %ws.desc.branchy.0, align 16
; CHECK-DAG:     alloca %ws.desc.branchy.1, align 16
; CHECK-DAG:     %ws.last.addr = alloca ptr
; CHECK-NOT:     stacksave
; CHECK:       ws.sync:
; CHECK:       ws.run:
; CHECK:         icmp eq ptr %ws.thunk, @__ws_thunk.branchy.0
; CHECK-NOT:     stackrestore
; CHECK:         ret i64 %v
