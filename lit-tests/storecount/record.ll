; ws-delta writes the module's x, the compile-time S and delta into the
; record ws-lower created: S from the target CPU (znver4: S = 93 in
; ws/cpus.def), or the ws-store-buffer option, or 256 for an unknown CPU.
; The record is { magic, version 2, x, S, delta, variant, flags, ABI
; version 3, module }.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,ws-delta' -S %s | FileCheck %s --check-prefix=ZEN4
; RUN: sed 's/znver4/x86-64/' %s | %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,ws-delta' -S | FileCheck %s --check-prefix=GENERIC
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;store-buffer=33>,ws-delta<store-buffer=33>' -S %s | FileCheck %s --check-prefix=OPTION
; The record is the one carrier of what ws-lower settled: ws-delta, run
; with its own defaults (ffmb, no spawn counting, another S), keeps the
; variant, the flags (counting spawns) and S of the record and fills in x.
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none;variant=ffcl;stats=1;store-buffer=40>,ws-delta' -S %s | FileCheck %s --check-prefix=CARRIED
; Remarks explain each take (the out-of-line take makes 1 store of its own).
; RUN: %opt -load-pass-plugin=%plugin -passes='ws-lower<abi-bc=none>,ws-delta' -pass-remarks-analysis=ws-storecount -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

; x = 1: the out-of-line take counts the store the runtime makes after it.
; ZEN4: @__ws_delta_record = internal constant { i32, i32, i32, i32, i32, i32, i32, i32, ptr } { i32 2004051046, i32 2, i32 1, i32 93, i32 47, i32 7, i32 0, i32 3, ptr @__ws_delta_record.module }, section "ws_delta"
; GENERIC: { i32 2004051046, i32 2, i32 1, i32 256, i32 128, i32 7, i32 0, i32 3,
; OPTION: { i32 2004051046, i32 2, i32 1, i32 33, i32 17, i32 7, i32 0, i32 3,
; CARRIED: { i32 2004051046, i32 2, i32 1, i32 40, i32 20, i32 3, i32 1, i32 3,
; REMARK: remark: <unknown>:0:0: minimum stores between take() calls: 1; the minimal path goes to a take inside __ws_body.t.ws.0, called at ? in t.ws

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
