// A C++ spawning library (ws-clang++ -shared) in a C program linked by
// ws-clang -fws-fencefree, dlopen'ed or linked at load time.  Its syncs
// call the runtime's exception entry points (__ws_exception_*) even when
// nothing throws; the C program's link never pulled them from libws.a, so
// before issue 33 the library failed to load with "undefined symbol:
// __ws_exception_drop".  The library now carries them (they keep no state
// of the runtime's), and a task's exception reaches its catch in the
// library as in a C++ program.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ws-clang++ -fws-fencefree -O2 -shared -fPIC %S/Inputs/dso-cxx.cpp -o %t/libcxx.so
// RUN: %ws-clang -fws-fencefree -O2 -DWS_DLOPEN %S/Inputs/dso-cxx-main.c -ldl -o %t/dl
// RUN: %ws-run --workers 1,2,4,16 --expect "dso-cxx ok" %t/dl -- %t/libcxx.so | FileCheck %s --check-prefix=RUNS
// Linked at load time: before, the link itself failed (the linker took
// libws.a's exception support for the library's references, and with it
// libstdc++, which the C program's link does not name).
// RUN: %ws-clang -fws-fencefree -O2 %S/Inputs/dso-cxx-main.c -L%t -lcxx -Wl,-rpath,%t -o %t/lt
// RUN: %ws-run --workers 1,2,4,16 --expect "dso-cxx ok" %t/lt | FileCheck %s --check-prefix=RUNS
// A plain C program that spawns nothing loads it too (dso-plain.c).
// RUN: %ws-clang -fws-fencefree -O2 %S/Inputs/dso-plain.c -ldl -o %t/plain
// RUN: env WS_NUM_WORKERS=4 %t/plain %t/libcxx.so | FileCheck %s --check-prefix=PLAIN
//
// A C++ program with its own exception support and the library: one
// runtime, the entry points bound once.
// RUN: %ws-clang++ -fws-fencefree -O2 -x c++ -DWS_DLOPEN %S/Inputs/dso-cxx-main.c -x none -ldl -o %t/dlxx
// RUN: %ws-run --workers 1,4 --expect "dso-cxx ok" %t/dlxx -- %t/libcxx.so | FileCheck %s --check-prefix=RUNS

// RUNS: ws-run: all {{[0-9]+}} runs as expected
// RUNS-NOT: UNEXPECTED
// PLAIN: dso_fib(20) = 6765
