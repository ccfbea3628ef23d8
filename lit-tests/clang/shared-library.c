// One runtime per process: a shared object built with ws-clang -shared
// carries no runtime of its own; its spawns run on the executable's
// workers, whether it is linked at load time or dlopen'ed, and are called
// from inside the executable's tasks.  Before, each .so linked libws.a: a
// second set of workers started (two "ws: variant=" lines under
// WS_STATS=1) and a dlopen'ed library's spawns failed with "ws_spawn/
// ws_sync on a thread the runtime does not own" on the executable's
// workers.  The library reaches the runtime's thread-local state
// (ws_my_dq) initial-exec, which binds to the executable's static TLS
// block, so it holds for dlopen too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for v in ffmb the split private; do \
// RUN:   %ws-clang -fws-fencefree=$v -O2 -shared -fPIC %S/Inputs/dso-fib.c -o %t/lib$v.so && \
// RUN:   %ws-clang -fws-fencefree=$v -O2 -DWS_DLOPEN %S/Inputs/dso-main.c -ldl -o %t/dl.$v && \
// RUN:   %ws-clang -fws-fencefree=$v -O2 %S/Inputs/dso-main.c -L%t -l$v -Wl,-rpath,%t -o %t/lt.$v || exit 1; \
// RUN: done
// RUN: for v in ffmb the split private; do \
// RUN:   %ws-run --workers 1,2,4,16 --expect "dso ok" %t/dl.$v -- %t/lib$v.so || exit 1; \
// RUN:   %ws-run --workers 1,2,4,16 --expect "dso ok" %t/lt.$v || exit 1; \
// RUN: done | FileCheck %s --check-prefix=RUNS
// RUN: env WS_STATS=1 WS_NUM_WORKERS=16 %t/dl.ffmb %t/libffmb.so 2>&1 | grep -c "ws: variant=" | FileCheck %s --check-prefix=ONE
// RUN: env WS_STATS=1 WS_NUM_WORKERS=16 %t/lt.the 2>&1 | grep -c "ws: variant=" | FileCheck %s --check-prefix=ONE
//
// An executable linked with -fws-fencefree carries the runtime even when it
// spawns nothing itself, for the libraries it loads.
// RUN: %ws-clang -fws-fencefree -O2 %S/Inputs/dso-plain.c -ldl -o %t/plain
// RUN: env WS_NUM_WORKERS=4 %t/plain %t/libffmb.so | FileCheck %s --check-prefix=PLAIN
//
// A library with spawns loaded into a process without the runtime (an
// executable linked without ws-clang -fws-fencefree) cannot be loaded:
// dlopen says which runtime symbol is missing.
// RUN: %ws-clang -O2 -DWS_DLOPEN %S/Inputs/dso-main.c -ldl -o %t/dl.serial
// RUN: not %t/dl.serial %t/libffmb.so 2>&1 | FileCheck %s --check-prefix=NORUNTIME

// RUNS-COUNT-8: ws-run: all 4 runs as expected
// RUNS-NOT: UNEXPECTED
// ONE: {{^1$}}
// PLAIN: dso_fib(20) = 6765
// NORUNTIME: dlopen: {{.*}}libffmb.so: undefined symbol: {{_?_?ws_}}
