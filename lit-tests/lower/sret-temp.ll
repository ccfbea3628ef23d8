; A result returned through sret lands in a temporary that only the task
; uses: the temporary moves into the task body, its lifetime markers go.
; The result handling (the copy out of the temporary) is more than one
; store of the call's value, so the body does it through the result
; address it captured, on whichever worker runs it; nothing is stored at
; the sync and nothing comes back in the slot.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %s | FileCheck %s

%struct.S24 = type { i64, i64, i64 }

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @mk(ptr sret(%struct.S24) align 8, i64)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @t(ptr %res, i64 %x) {
entry:
  %tmp = alloca %struct.S24, align 8
  call void (ptr, ...) @__ws_spawn_begin(ptr %res, ptr @mk)
  call void @llvm.lifetime.start.p0(i64 24, ptr %tmp)
  call void @mk(ptr sret(%struct.S24) align 8 %tmp, i64 %x)
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %res, ptr align 8 %tmp, i64 24, i1 false)
  call void @llvm.lifetime.end.p0(i64 24, ptr %tmp)
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}

; CHECK: %ws.task.t.ws.0 = type { i64, ptr }
; CHECK-LABEL: define internal void @t.ws(ptr %ws.tail, ptr %res, i64 %x)
; CHECK-NOT:     %tmp = alloca
; CHECK-NOT:     lifetime
; CHECK:         store ptr %res, ptr
; CHECK:         call void @__ws_push_ffmb(
; CHECK:       ws.run.plain:
; CHECK-NEXT:    {{call|invoke}} void @__ws_body.t.ws.0(ptr %ws.slot, i64 %x, ptr %res)
; CHECK:    br label %ws.synced
; CHECK:       ws.join:
; CHECK-NEXT:    {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join(ptr %ws.slot)
; CHECK:    br label %ws.synced
; CHECK-LABEL: define internal void @__ws_body.t.ws.0(ptr %ws.tail, i64 %x, ptr %res)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %tmp = alloca %struct.S24, align 8
; CHECK-NEXT:    call void @mk(ptr sret(%struct.S24) align 8 %tmp, i64 %x), !ws.sync.call
; CHECK-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 8 %res, ptr align 8 %tmp, i64 24, i1 false)
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal void @__ws_thunk.t.ws.0(ptr %0, ptr %1)
; CHECK:         {{call|invoke}} void @__ws_body.t.ws.0(ptr %1,
; CHECK:    ret void
