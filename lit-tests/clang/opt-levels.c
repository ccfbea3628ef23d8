// Every -O level, with and without -g; the IR verifies, the debug info
// verifies, the programs run.
// RUN: %ws-clang -fws-fencefree -O0 %S/Inputs/spawns.c -o %t.O0
// RUN: %ws-clang -fws-fencefree -O1 %S/Inputs/spawns.c -o %t.O1
// RUN: %ws-clang -fws-fencefree -O3 %S/Inputs/spawns.c -o %t.O3
// RUN: %ws-clang -fws-fencefree -Os %S/Inputs/spawns.c -o %t.Os
// RUN: %ws-clang -fws-fencefree -O0 -g %S/Inputs/spawns.c -o %t.O0g
// RUN: %ws-clang -fws-fencefree -O2 -g %S/Inputs/spawns.c -o %t.O2g
// RUN: %ws-run --workers 2 %t.O0 %t.O1 %t.O3 %t.Os %t.O0g %t.O2g | FileCheck %s
// RUN: %ws-clang -fws-fencefree -O0 -g -S -emit-llvm %S/Inputs/spawns.c -o - | opt -passes=verify -disable-output
// RUN: %ws-clang -fws-fencefree -O2 -g -S -emit-llvm %S/Inputs/spawns.c -o - | opt -passes=verify -disable-output
// RUN: %ws-clang -fws-fencefree -O2 -g -c %S/Inputs/spawns.c -o %t.o && llvm-dwarfdump --verify %t.o | FileCheck %s --check-prefix=DWARF

// CHECK-COUNT-6: workers=2: ok
// DWARF: No errors.
