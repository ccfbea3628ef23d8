; Found by ws-lower-fuzzer: a module in which a builtin's name is taken by a
; variable (here `@__ws_sync`, called as if it were the function) crashed
; ws-lower when it declared ws_sync for the syncs it adds before locals die
; (a cast of the variable to a function).  A variable or an alias of any of
; the three builtins' names is now an error at the call, and nothing is
; lowered.
; RUN: split-file %s %t
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/sync.ll 2>&1 | FileCheck %s --check-prefix=SYNC
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-lower -disable-output %t/begin.ll 2>&1 | FileCheck %s --check-prefix=BEGIN
; RUN: not %opt -load-pass-plugin=%plugin -passes=ws-fencefree -disable-output %t/alias.ll 2>&1 | FileCheck %s --check-prefix=ALIAS

; SYNC: t.c:3:3: in function t void (ptr): __ws_sync is reserved for the ws builtins of <ws/ws.h> and must not name a variable or an alias
; SYNC-NOT: error
; BEGIN: error: __ws_spawn_begin is reserved for the ws builtins of <ws/ws.h> and must not name a variable or an alias
; BEGIN-NOT: error
; ALIAS: error: __ws_spawn_end is reserved for the ws builtins of <ws/ws.h> and must not name a variable or an alias

;--- sync.ll
@__ws_sync = external thread_local constant <1 x i16>
declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare i64 @f(i64)
define void @t(ptr %r) !dbg !5 {
  call void (ptr, ...) @__ws_spawn_begin(ptr %r, ptr @f), !dbg !8
  %v = call i64 @f(i64 1), !dbg !8
  store i64 %v, ptr %r, !dbg !8
  call void @__ws_spawn_end(), !dbg !8
  call void @__ws_sync(), !dbg !9
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
!8 = !DILocation(line: 2, column: 3, scope: !5)
!9 = !DILocation(line: 3, column: 3, scope: !5)

;--- begin.ll
@__ws_spawn_begin = global i32 0
declare void @__ws_sync()
define void @t() {
  call void @__ws_sync()
  ret void
}

;--- alias.ll
define void @g() {
  ret void
}
@__ws_spawn_end = alias void (), ptr @g
declare void @__ws_sync()
define void @t() {
  call void @__ws_sync()
  ret void
}
