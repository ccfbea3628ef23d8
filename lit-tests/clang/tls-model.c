// The fast paths reach the owner's deque (ws_my_dq) through %fs: local-exec
// in an executable (clang's default PIE, or -fno-pic), initial-exec in code
// compiled for a shared object (-fPIC).
// RUN: %ws-clang -fws-fencefree -O2 -S -emit-llvm %S/Inputs/fib.c -o - | FileCheck %s --check-prefix=EXEC
// RUN: %ws-clang -fws-fencefree -O2 -fno-pic -S -emit-llvm %S/Inputs/fib.c -o - | FileCheck %s --check-prefix=EXEC
// RUN: %ws-clang -fws-fencefree -O2 -fPIC -S -emit-llvm %S/Inputs/fib.c -o - | FileCheck %s --check-prefix=DSO
// REQUIRES: x86_64

// EXEC: @ws_my_dq = external dso_local thread_local(localexec)
// DSO: @ws_my_dq = external thread_local(initialexec)
