; Found by ws-lower-fuzzer: two begin markers whose paths meet before one
; end marker made two spawns of one call, and the call was outlined and
; erased twice (a use after free).  Each spawn needs an end of its own.
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -disable-output %s 2>&1 | FileCheck %s

; CHECK: error: {{.*}}malformed ws_spawn: its __ws_spawn_end also ends another spawn (use the ws_spawn macro of <ws/ws.h>)
; CHECK-NOT: error

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @g()

define void @two_begins(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  br label %join
b:
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  br label %join
join:
  call void @g()
  call void @__ws_spawn_end()
  ret void
}
