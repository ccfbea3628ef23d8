// C++: function template instantiations, static member functions, a
// result of class type (its assignment runs in the task), ws_spawn_void.
// RUN: %ws-clang++ -fws-fencefree -O0 %S/Inputs/spawns.cpp -o %t.O0
// RUN: %ws-clang++ -fws-fencefree -O2 -g %S/Inputs/spawns.cpp -o %t.O2
// RUN: %ws-clang++ -fws-fencefree=ffthe -O2 %S/Inputs/spawns.cpp -o %t.ffthe
// RUN: %ws-run %t.O0 %t.O2 %t.ffthe | FileCheck %s
// RUN: %ws-clang++ -O2 %S/Inputs/spawns.cpp -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL

// CHECK-COUNT-9: workers={{[124]}}: ok
// SERIAL: ok
