; Bad uses of the builtins are errors with the location of the call, never
; a crash.  Each input is split out with a RUN line of its own.
; RUN: split-file %s %t
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/redeclared.ll 2>&1 | FileCheck %s --check-prefix=REDECL
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/defined.ll 2>&1 | FileCheck %s --check-prefix=DEFINED
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/address.ll 2>&1 | FileCheck %s --check-prefix=ADDRESS
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/no-end.ll 2>&1 | FileCheck %s --check-prefix=NOEND
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/no-call.ll 2>&1 | FileCheck %s --check-prefix=NOCALL
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/side-effect.ll 2>&1 | FileCheck %s --check-prefix=SIDE
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/escape.ll 2>&1 | FileCheck %s --check-prefix=ESCAPE
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/runtime-decl.ll 2>&1 | FileCheck %s --check-prefix=RTDECL

; REDECL: t.c:2:16: in function t void (): the declaration of __ws_sync (void (i32)) does not match <ws/ws.h>; do not redeclare the ws builtins
; DEFINED: __ws_sync is reserved for the ws builtins of <ws/ws.h> and must not be defined
; ADDRESS: error: __ws_sync can only be called (through the ws_spawn and ws_sync macros)
; NOEND: t.c:4:3: in function t void (ptr): malformed ws_spawn: no matching __ws_spawn_end on every path
; NOCALL: cannot find the call of the spawned function right before the end of the spawn
; SIDE: the spawned statement has side effects after the call that do not depend on it
; ESCAPE: the result of the spawned call is used outside the spawn before ws_sync
; RTDECL: error: the module declares the runtime entry point __ws_push_ffmb differently from <ws/abi.h>

;--- redeclared.ll
declare void @__ws_sync(i32)
define void @t() !dbg !5 {
  call void @__ws_sync(i32 1), !dbg !8
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: NoDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "t", scope: !1, file: !1, line: 1, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 2, column: 16, scope: !5)

;--- defined.ll
define void @__ws_sync() {
  ret void
}
define void @t() {
  call void @__ws_sync()
  ret void
}

;--- address.ll
declare void @__ws_sync()
@p = global ptr @__ws_sync

;--- no-end.ll
declare void @__ws_spawn_begin(ptr, ...)
declare i64 @f(i64)
define void @t(ptr %r) !dbg !5 {
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @f), !dbg !8
  %v = call i64 @f(i64 1)
  store i64 %v, ptr %r
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: NoDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "t", scope: !1, file: !1, line: 3, type: !6, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 4, column: 3, scope: !5)

;--- no-call.ll
; the marker names @f, but nothing calls it
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare i64 @f(i64)
declare i64 @g(i64)
define void @t(ptr %r) {
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @f)
  %v = call i64 @g(i64 1)
  store i64 %v, ptr %r
  call void @__ws_spawn_end()
  ret void
}

;--- side-effect.ll
; a call after the spawned one that does not use its result (a C++
; temporary's destructor, say) cannot run in the parent nor in the task
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare i64 @f(ptr)
declare void @destroy(ptr)
define void @t(ptr %r, ptr %tmp) {
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @f)
  %v = call i64 @f(ptr %tmp)
  store i64 %v, ptr %r
  call void @destroy(ptr %tmp)
  call void @__ws_spawn_end()
  ret void
}

;--- escape.ll
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare i64 @f(i64)
define i64 @t(ptr %r) {
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @f)
  %v = call i64 @f(i64 1)
  store i64 %v, ptr %r
  call void @__ws_spawn_end()
  ret i64 %v
}

;--- runtime-decl.ll
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i32 @__ws_push_ffmb(i32)
declare void @g()
define void @t() {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}
