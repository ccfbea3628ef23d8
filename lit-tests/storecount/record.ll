; ws-delta writes the module's x, the compile-time S and delta into the
; record ws-lower created: S from the target CPU (znver4: S = 93 in
; ws/cpus.def), or the ws-store-buffer option, or 256 for an unknown CPU.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,ws-delta' -S %s | FileCheck %s --check-prefix=ZEN4
; RUN: sed 's/znver4/x86-64/' %s | %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,ws-delta' -S | FileCheck %s --check-prefix=GENERIC
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;store-buffer=33>,ws-delta<store-buffer=33>' -S %s | FileCheck %s --check-prefix=OPTION
; Remarks explain each take (the out-of-line take makes 1 store of its own).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,ws-delta' -pass-remarks-analysis=ws-storecount -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

; x = 1: the out-of-line take counts the store the runtime makes after it.
; ZEN4: @__ws_delta_record = internal constant {{.*}} { i32 2004051046, i32 1, i32 1, i32 93, i32 47, i32 4, ptr @__ws_delta_record.module }, section "ws_delta"
; GENERIC: { i32 2004051046, i32 1, i32 1, i32 256, i32 128, i32 4,
; OPTION: { i32 2004051046, i32 1, i32 1, i32 33, i32 17, i32 4,
; REMARK: remark: <unknown>:0:0: minimum stores between take() calls: 1; the minimal path goes to a take inside __ws_body.t.0, called at ? in t

declare void @__ws_spawn_begin(ptr, ...)
declare void @__ws_spawn_end()
declare void @__ws_sync()
declare void @g()

define void @t() #0 {
  call void (ptr, ...) @__ws_spawn_begin(ptr null, ptr @g)
  call void @g()
  call void @__ws_spawn_end()
  call void @__ws_sync()
  ret void
}

attributes #0 = { "target-cpu"="znver4" }
