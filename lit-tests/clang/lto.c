// REQUIRES: lld
// Link-time optimization with lld: the objects carry lowered IR with the
// runtime's fast paths, and their ws_delta records survive the link.
// RUN: %ws-clang -fws-fencefree -O2 -flto -c %S/Inputs/spawns.c -o %t.o
// RUN: %ws-clang -fws-fencefree -O2 -flto -fuse-ld=lld %t.o -o %t.lto
// RUN: %ws-run %t.lto | FileCheck %s
// RUN: env WS_STATS=1 WS_NUM_WORKERS=2 %t.lto 2>&1 | FileCheck %s --check-prefix=STATS

// CHECK-COUNT-3: workers={{[124]}}: ok
// STATS: ws: variant=ffmb workers=2 {{.*}} x_from={{.*}}spawns.c
