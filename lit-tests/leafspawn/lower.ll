; ws-lower with leaf-spawns=1 (the clang pipeline's setting from -O1 up,
; LeafSpawn.h): in a function that syncs dynamically, a spawn of a
; function that has a clone gets a placeholder leaf test in front of it;
; on "leaf" the placeholder's value is stored where the spawned call's
; would have been (and counted with stats=1), nothing is pushed.  Not for
; a function whose syncs are static, a callee without a clone, a result
; that is not a plain value, or without the option.
; RUN: split-file %s %t
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<leaf-spawns=1;abi-bc=none>' -S %t/loop.ll | FileCheck %s --check-prefix=LOOP
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<leaf-spawns=1;abi-bc=none;stats=1>' -S %t/loop.ll | FileCheck %s --check-prefix=STATS
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>' -S %t/loop.ll | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<leaf-spawns=1;abi-bc=none>' -S %t/static.ll | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<leaf-spawns=1;abi-bc=none>' -S %t/external.ll | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<leaf-spawns=1;abi-bc=none>' -S %t/aggregate.ll | FileCheck %s --check-prefix=OFF

; LOOP-LABEL: define internal i64 @tree.ws(ptr %ws.tail, i64 %n)
; LOOP:         %ws.isleaf = call i1 (ptr, ...) @__ws_leaf_test(ptr @tree.ws, i64 %m)
; LOOP-NEXT:    br i1 %ws.isleaf, label %[[LEAF:ws.leaf]], label %ws.spawn
; LOOP:       [[LEAF]]:
; LOOP-NEXT:    %ws.leaf.value = call i64 (ptr, ...) @__ws_leaf_value.i64(ptr @tree.ws, i64 %m)
; LOOP-NEXT:    store i64 %ws.leaf.value, ptr %slot, align 8
; LOOP-NEXT:    br label %ws.spawned
; LOOP:       ws.spawn:
; LOOP:         call void @__ws_push_ffmb(
; LOOP:       ws.spawned:
; LOOP:       declare i1 @__ws_leaf_test(ptr, ...) #[[ATTR:[0-9]+]]
; LOOP:       declare i64 @__ws_leaf_value.i64(ptr, ...) #[[ATTR]]
; LOOP:       attributes #[[ATTR]] = { nounwind willreturn }

; STATS:       [[LEAF:ws.leaf]]:
; STATS-NEXT:    %ws.leaf.value = call i64 (ptr, ...) @__ws_leaf_value.i64(ptr @tree.ws, i64 %m)
; STATS-NEXT:    store i64 %ws.leaf.value, ptr %slot, align 8
; STATS-NEXT:    [[C:%.*]] = call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@ws_tls_spawns)
; STATS-NEXT:    [[V:%.*]] = load i64, ptr [[C]]
; STATS-NEXT:    [[V1:%.*]] = add i64 [[V]], 1
; STATS-NEXT:    store i64 [[V1]], ptr [[C]]
; STATS-NEXT:    br label %ws.spawned

; OFF-NOT: __ws_leaf

;--- loop.ll
declare ptr @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()

; Sums tree(n - 1) n times; tree(0) is 1.
define i64 @tree(i64 %n) nounwind {
entry:
  %sums = alloca [16 x i64]
  %leaf = icmp eq i64 %n, 0
  br i1 %leaf, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %slot = getelementptr [16 x i64], ptr %sums, i64 0, i64 %i
  %fn = call ptr (ptr, ...) @__ws_spawn_begin(ptr %slot, ptr @tree)
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

;--- static.ll
declare ptr @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()

define i64 @fib(i64 %n) nounwind {
entry:
  %a = alloca i64
  %small = icmp slt i64 %n, 2
  br i1 %small, label %leaf, label %rec
rec:
  %fn = call ptr (ptr, ...) @__ws_spawn_begin(ptr %a, ptr @fib)
  %n1 = sub i64 %n, 1
  %r = call i64 %fn(i64 %n1)
  store i64 %r, ptr %a
  call void @__ws_spawn_end()
  %n2 = sub i64 %n, 2
  %b = call i64 @fib(i64 %n2)
  call void @__ws_sync()
  %av = load i64, ptr %a
  %s = add i64 %av, %b
  ret i64 %s
leaf:
  ret i64 %n
}

;--- external.ll
declare ptr @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare i64 @work(i64) nounwind

define void @each(ptr %out, i64 %n) nounwind {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr i64, ptr %out, i64 %i
  %fn = call ptr (ptr, ...) @__ws_spawn_begin(ptr %p, ptr @work)
  %r = call i64 %fn(i64 %i)
  store i64 %r, ptr %p
  call void @__ws_spawn_end()
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %sync
sync:
  call void @__ws_sync()
  ret void
}

;--- aggregate.ll
declare ptr @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()

define { i64, i64 } @pair(i64 %n) nounwind {
entry:
  %sums = alloca [16 x { i64, i64 }]
  %leaf = icmp eq i64 %n, 0
  br i1 %leaf, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %slot = getelementptr [16 x { i64, i64 }], ptr %sums, i64 0, i64 %i
  %fn = call ptr (ptr, ...) @__ws_spawn_begin(ptr %slot, ptr @pair)
  %m = sub i64 %n, 1
  %r = call { i64, i64 } %fn(i64 %m)
  store { i64, i64 } %r, ptr %slot
  call void @__ws_spawn_end()
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %sync
sync:
  call void @__ws_sync()
  %s0 = load { i64, i64 }, ptr %sums
  ret { i64, i64 } %s0
done:
  ret { i64, i64 } { i64 1, i64 1 }
}
