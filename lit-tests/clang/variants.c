// Every exactly-once variant, 1, 2 and 4 workers: fib and a program that
// exercises every kind of spawn (scalars of each type, structs both ways,
// byval copies, function pointers, spawn loops, branches, early returns,
// ws_for).
// RUN: %ws-clang -fws-fencefree=the -O2 %S/Inputs/spawns.c -o %t.the
// RUN: %ws-clang -fws-fencefree=cl -O2 %S/Inputs/spawns.c -o %t.cl
// RUN: %ws-clang -fws-fencefree=ffthe -O2 %S/Inputs/spawns.c -o %t.ffthe
// RUN: %ws-clang -fws-fencefree=ffcl -O2 %S/Inputs/spawns.c -o %t.ffcl
// RUN: %ws-clang -fws-fencefree=thep -O2 %S/Inputs/spawns.c -o %t.thep
// RUN: %ws-clang -fws-fencefree=split -O2 %S/Inputs/spawns.c -o %t.split
// RUN: %ws-clang -fws-fencefree=private -O2 %S/Inputs/spawns.c -o %t.private
// RUN: %ws-run %t.the %t.cl %t.ffthe %t.ffcl %t.thep %t.split %t.private | FileCheck %s --check-prefix=SPAWNS
// RUN: %ws-clang -fws-fencefree=the -O2 %S/Inputs/fib.c -o %t.fib.the
// RUN: %ws-clang -fws-fencefree=ffcl -O2 %S/Inputs/fib.c -o %t.fib.ffcl
// RUN: %ws-clang -fws-fencefree=thep -O2 %S/Inputs/fib.c -o %t.fib.thep
// RUN: %ws-clang -fws-fencefree=split -O2 %S/Inputs/fib.c -o %t.fib.split
// RUN: %ws-clang -fws-fencefree=private -O2 %S/Inputs/fib.c -o %t.fib.private
// RUN: %ws-run %t.fib.the %t.fib.ffcl %t.fib.thep %t.fib.split %t.fib.private -- 27 | FileCheck %s --check-prefix=FIB

// SPAWNS-COUNT-21: workers={{[124]}}: ok
// SPAWNS-NOT: FAIL
// FIB-COUNT-15: workers={{[124]}}: fib(27) = 196418
