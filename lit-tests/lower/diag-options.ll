; A bad pass parameter or option is a command-line error, not a crash.
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<variant=bogus>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=VARIANT -DVARIANTS='%{variants}'
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<fence=lfence>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=FENCE
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<store-buffer=0>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=SBUF
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<stats=yes>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: not %opt -load-pass-plugin=%plugin -passes='ws-lower<colour=blue>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
; RUN: not %opt -load-pass-plugin=%plugin -ws-variant=nope -passes=ws-lower -disable-output %s 2>&1 | FileCheck %s --check-prefix=CLOPT

; VARIANT: ws-lower: wsff option variant='bogus': expected [[VARIANTS]]
; FENCE: wsff option fence='lfence': expected xchg or mfence
; SBUF: wsff option store-buffer='0': expected an integer from 1 to 65536
; STATS: wsff option stats='yes': expected 0 or 1
; UNKNOWN: unknown wsff option 'colour' (known: variant, stats, fence, abi-bc, store-buffer, target-delta, scale, race, leaf-spawns, omp-tasks)
; CLOPT: wsff option variant='nope'
; VARIANT-NOT: Stack dump
; CLOPT-NOT: Stack dump

define void @t() {
  ret void
}
