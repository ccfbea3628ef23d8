; ws-leafsplit fills the placeholders of LeafSpawn.h in with the callee
; clone's leaf test and value (here: m == 0, and 1), inlined at the spawn;
; a clone without a leaf test gives "not a leaf".  ws-leafspawn-drop (the
; end of the pipeline) turns the placeholders no ws-leafsplit filled in
; into "not a leaf".  Neither leaves a placeholder behind.
; RUN: split-file %S/lower.ll %t
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<leaf-spawns=1;abi-bc=none>,function(sroa),ws-leafsplit' -S %t/loop.ll | FileCheck %s --check-prefix=FILLED
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<leaf-spawns=1;abi-bc=none>,function(sroa),ws-leafsplit' -S %s | FileCheck %s --check-prefix=NOLEAF
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<leaf-spawns=1;abi-bc=none>,ws-leafspawn-drop' -S %t/loop.ll | FileCheck %s --check-prefix=DROPPED

; FILLED-LABEL: define internal i64 @tree.ws.body(ptr %ws.tail, i64 %n)
; FILLED:       loop:
; FILLED:         [[T:%.*]] = icmp eq i64 %m, 0
; FILLED-NEXT:    br i1 [[T]], label %ws.leaf, label %ws.spawn
; FILLED:       ws.leaf:
; FILLED:         store i64 1, ptr %slot, align 8
; FILLED-NEXT:    br label %ws.spawned
; FILLED-NOT:   __ws_leaf

; NOLEAF-LABEL: define internal i64 @busy.ws(ptr %ws.tail, i64 %n)
; NOLEAF:       loop:
; NOLEAF-NOT:     icmp
; NOLEAF:         %m = sub i64 %n, 1
; NOLEAF-NEXT:    br i1 false, label %ws.leaf, label %ws.spawn
; NOLEAF-NOT:   __ws_leaf

; DROPPED:       br i1 false, label %ws.leaf, label %ws.spawn
; DROPPED:       ws.leaf:
; DROPPED-NEXT:    store i64 poison, ptr %slot, align 8
; DROPPED-NOT:   __ws_leaf

declare ptr @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @side(i64) nounwind

; Its entry calls a function before any test: no leaf test to copy.
define i64 @busy(i64 %n) nounwind {
entry:
  %sums = alloca [16 x i64]
  call void @side(i64 %n)
  %leaf = icmp eq i64 %n, 0
  br i1 %leaf, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %slot = getelementptr [16 x i64], ptr %sums, i64 0, i64 %i
  %fn = call ptr (ptr, ...) @__ws_spawn_begin(ptr %slot, ptr @busy)
  %m = sub i64 %n, 1
  %r = call i64 %fn(i64 %m)
  store i64 %r, ptr %slot, align 8
  call void @__ws_spawn_end()
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %sync
sync:
  call void @__ws_sync()
  %s0 = load i64, ptr %sums
  ret i64 %s0
done:
  ret i64 1
}
