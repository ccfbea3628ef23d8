; ws-result-loads: a vector load of memory that ws-lower marked as a spawn
; result's (!ws.result on the alloca) becomes one load per element: the
; sync stored the results 8 bytes at a time just before, and a 16-byte load
; that spans two such stores still in the store buffer is not forwarded.
; The element loads are unordered atomics, which codegen does not merge
; back into one wide load; the arithmetic stays vectorized.
; RUN: %opt -load-pass-plugin=%plugin -passes='function(ws-result-loads)' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='function(ws-result-loads)' %s -o - | %llc -O2 -o - | FileCheck %s --check-prefix=ASM

declare void @escape(ptr)

; CHECK-LABEL: define i64 @sum(
; CHECK: %v.elt = load atomic i64, ptr %sum unordered, align 16
; CHECK-NEXT: insertelement <2 x i64> poison, i64 %v.elt, i64 0
; CHECK-NEXT: %[[P1:.*]] = getelementptr inbounds i8, ptr %sum, i64 8
; CHECK-NEXT: load atomic i64, ptr %[[P1]] unordered, align 8
; CHECK: %w.elt = load atomic i64, ptr %{{.*}} unordered, align 16
; CHECK-NOT: load <2 x i64>
; CHECK: add <2 x i64>
; ASM-LABEL: sum:
; ASM-NOT: movdqa {{.*}}(%rsp)
; ASM-NOT: paddq {{.*}}(%rsp)
; ASM: ret
define i64 @sum() {
  %sum = alloca [4 x i64], align 16, !ws.result !0
  call void @escape(ptr %sum)
  %v = load <2 x i64>, ptr %sum, align 16
  %hi = getelementptr inbounds [4 x i64], ptr %sum, i64 0, i64 2
  %w = load <2 x i64>, ptr %hi, align 16
  %a = add <2 x i64> %v, %w
  %x = extractelement <2 x i64> %a, i64 0
  %y = extractelement <2 x i64> %a, i64 1
  %r = add i64 %x, %y
  ret i64 %r
}

; Unmarked memory, a volatile load and bit-packed elements stay as they are.
; CHECK-LABEL: define i64 @others(
; CHECK: load <2 x i64>, ptr %plain
; CHECK: load volatile <2 x i64>, ptr %marked
; CHECK: load <8 x i1>, ptr %marked
define i64 @others() {
  %plain = alloca [2 x i64], align 16
  %marked = alloca [2 x i64], align 16, !ws.result !0
  call void @escape(ptr %plain)
  call void @escape(ptr %marked)
  %a = load <2 x i64>, ptr %plain, align 16
  %b = load volatile <2 x i64>, ptr %marked, align 16
  %c = load <8 x i1>, ptr %marked, align 16
  %s = add <2 x i64> %a, %b
  %x = extractelement <2 x i64> %s, i64 0
  %bit = extractelement <8 x i1> %c, i64 0
  %z = zext i1 %bit to i64
  %r = add i64 %x, %z
  ret i64 %r
}

!0 = !{}
