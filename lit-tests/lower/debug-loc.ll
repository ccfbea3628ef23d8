; With debug info the new calls carry the location of the spawn or sync
; they come from (the verifier insists for inlinable calls), and the task
; body has no stale locations of the parent's scope.  The function's
; subprogram moves with its body to the clone; the entry point, a call
; and a return, has none.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,verify' -S %s | FileCheck %s

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @f(i64)

define i64 @t(i64 %x) !dbg !5 {
entry:
  %a = alloca i64
  call void (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @f), !dbg !8
  %r = call i64 @f(i64 %x), !dbg !8
  store i64 %r, ptr %a, !dbg !8
  call void @__ws_spawn_end(), !dbg !8
  call void @__ws_sync(), !dbg !9
  %v = load i64, ptr %a, !dbg !10
  ret i64 %v, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "t", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 5, column: 3, scope: !5)
!9 = !DILocation(line: 6, column: 3, scope: !5)
!10 = !DILocation(line: 7, column: 3, scope: !5)

; CHECK-LABEL: define i64 @t(i64 %0) {
; CHECK-NOT:     !dbg
; CHECK:         ret i64
; CHECK-LABEL: define internal i64 @t.ws(ptr %ws.tail, i64 %x)
; CHECK-SAME:    !dbg [[SP:![0-9]+]]
; CHECK:         store ptr %ws.tail, ptr %ws.tail.addr, align 8, !dbg [[SPAWN:![0-9]+]]
; CHECK:         call void @__ws_push_ffmb({{.*}}), !dbg [[SPAWN]]
; CHECK:         call i32 @__ws_take_ffmb({{.*}}), !dbg [[SYNC:![0-9]+]], !ws.take
; CHECK:         call i64 @__ws_body.t.ws.0({{.*}}), !dbg [[SYNC]]
; CHECK:         {{%ws.exn.stolen[0-9]*}} = {{(tail )?}}call ptr @__ws_join({{.*}}), !dbg [[SYNC]]
; CHECK-LABEL: define internal i64 @__ws_body.t.ws.0(
; CHECK-NOT:     !dbg
; CHECK:         ret i64
; CHECK: [[SP]] = distinct !DISubprogram(name: "t"
; CHECK: [[SPAWN]] = !DILocation(line: 5, column: 3, scope: [[SP]])
; CHECK: [[SYNC]] = !DILocation(line: 6, column: 3, scope: [[SP]])
