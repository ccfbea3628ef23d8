// Without -fws-fencefree the same source is its serial elision: plain
// calls, no runtime, the same answers.
// RUN: %ws-clang -O2 %S/Inputs/spawns.c -o %t.serial
// RUN: %t.serial | FileCheck %s
// RUN: llvm-nm %t.serial | FileCheck %s --check-prefix=SYMS
// RUN: %ws-clang -O2 %S/Inputs/fib.c -o %t.fib && %t.fib 20 | FileCheck %s --check-prefix=FIB

// CHECK: ok
// SYMS-NOT: __ws_
// SYMS-NOT: ws_tls_self
// FIB: fib(20) = 6765
