// Spawns are counted by code compiled to count them (the plugin's stats
// option), and the runtime prints a total only when every module with
// spawns counts: fib(10) makes 88 spawns; a program with one module
// compiled without counting says "uncounted".
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ws-clang -fws-fencefree -fplugin-arg-wsff-stats=1 -O2 %S/Inputs/fib.c -o %t/fib
// RUN: env WS_STATS=1 WS_NUM_WORKERS=1 %t/fib 10 2>&1 | FileCheck %s --check-prefix=COUNTED
// RUN: %ws-clang -fws-fencefree -O2 %S/Inputs/fib.c -o %t/fib-uncounted
// RUN: env WS_STATS=1 WS_NUM_WORKERS=1 %t/fib-uncounted 10 2>&1 | FileCheck %s --check-prefix=UNCOUNTED
// RUN: %ws-clang -fws-fencefree -fplugin-arg-wsff-stats=1 -O2 -c %S/Inputs/main2.c -o %t/main2.o
// RUN: %ws-clang -fws-fencefree -O2 -c %S/Inputs/sum2.c -o %t/sum2.o
// RUN: %ws-clang -fws-fencefree %t/main2.o %t/sum2.o -o %t/mixed
// RUN: env WS_STATS=1 WS_NUM_WORKERS=1 %t/mixed 2>&1 | FileCheck %s --check-prefix=MIXED

// COUNTED-DAG: fib(10) = 55
// COUNTED-DAG: ws: variant=ffmb workers=1 {{.*}} spawns=88 {{.*}}
// COUNTED-DAG: ws: worker 0: spawns=88 {{.*}}
// UNCOUNTED: spawns=uncounted
// MIXED-DAG: sum = 5050
// MIXED-DAG: ws: variant=ffmb {{.*}} spawns=uncounted {{.*}}
