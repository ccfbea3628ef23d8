// An explicit ws_set_num_workers wins over WS_NUM_WORKERS and the CPU
// count whenever it happened: also in a constructor of a library loaded
// at start-up, or one of the executable's that runs before libws's own
// (which read the environment).  Before issue 33 the call returned 0 and
// the runtime's constructor then overwrote the count with the
// environment's (workers=1, 2 or 16 here).  A library constructor may
// also spawn, before the runtime configured itself.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ws-clang -fws-fencefree -O2 -shared -fPIC %S/Inputs/workers-lib.c -o %t/libset.so
// RUN: %ws-clang -fws-fencefree -O2 -shared -fPIC -DSPAWN_IN_CONSTRUCTOR %S/Inputs/workers-lib.c -o %t/libspawn.so
// RUN: %ws-clang -fws-fencefree -O2 -DLIB %S/Inputs/workers-main.c -L%t -lset -Wl,-rpath,%t -o %t/lib-set
// RUN: %ws-clang -fws-fencefree -O2 -DLIB %S/Inputs/workers-main.c -L%t -lspawn -Wl,-rpath,%t -o %t/lib-spawn
// RUN: %ws-clang -fws-fencefree -O2 -DEARLY_SET %S/Inputs/workers-main.c -o %t/early-set
// RUN: for w in 1 2 16; do env WS_NUM_WORKERS=$w %t/lib-set; env WS_NUM_WORKERS=$w %t/lib-spawn; done | FileCheck %s --check-prefix=THREE
// RUN: %t/lib-set | FileCheck %s --check-prefix=CPUS
// RUN: for w in 1 2 16; do env WS_NUM_WORKERS=$w %t/early-set; done | FileCheck %s --check-prefix=FIVE
//
// A bad WS_NUM_WORKERS is still refused, set or not.
// RUN: env WS_NUM_WORKERS=0 not %t/lib-set 2>&1 | FileCheck %s --check-prefix=BAD

// THREE-COUNT-6: workers=3 fib=6765
// THREE-NOT: workers=
// CPUS: workers=3 fib=6765
// FIVE-COUNT-3: workers=5 fib=6765
// FIVE-NOT: workers=
// BAD: ws: WS_NUM_WORKERS="0" is not valid
