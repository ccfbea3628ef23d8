// A shared library's modules count in delta: each module registers its
// ws_delta record from a constructor (passes/DeltaRecord.cpp), since the
// runtime walks only the executable's section.  Before, a library whose x
// was smaller than the executable's ran with the executable's delta, too
// small for it (FF-THE could run a task twice), and a library compiled
// for another deque variant was loaded without a word.
//
// The library: FF-THE, x = 1, so delta = 32 at S = 64.  The executables:
// padded to delta 8 (-fws-fencefree-delta=8).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ws-clang -fws-fencefree=ffthe -fws-store-buffer=64 -O2 -shared -fPIC %S/Inputs/dso-fib.c -o %t/libffthe.so
// RUN: %ws-clang -fws-fencefree=the -O2 -shared -fPIC %S/Inputs/dso-fib.c -o %t/libthe.so
// RUN: %ws-clang -fws-fencefree=ffthe -fws-store-buffer=64 -fws-fencefree-delta=8 -O2 %S/Inputs/dso-main.c -L%t -lffthe -Wl,-rpath,%t -o %t/lt
// RUN: %ws-clang -fws-fencefree=ffthe -fws-store-buffer=64 -fws-fencefree-delta=8 -O2 -DWS_DLOPEN %S/Inputs/dso-main.c -ldl -o %t/dl
// RUN: %ws-clang -fws-fencefree=ffthe -fws-store-buffer=64 -fws-fencefree-delta=8 -O2 %S/Inputs/dso-late.c -ldl -o %t/late
//
// The executable alone would steal with delta 8 (its own x).
// RUN: env WS_STATS=1 WS_STORE_BUFFER=64 WS_NUM_WORKERS=2 not %t/late %t/none.so 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: dlopen:
// ALONE: ws: variant=ffthe workers=2 S=64 delta=8 x={{[0-9]+}} {{.*}}x_from={{.*}}dso-late.c
//
// Linked at load time: the library's record joins the executable's.
// RUN: env WS_STATS=1 WS_STORE_BUFFER=64 WS_NUM_WORKERS=2 %t/lt 2>&1 | FileCheck %s --check-prefix=JOINED
// dlopen'ed before the workers start (the program's first spawn is in the
// library): no thief has used the smaller delta, which is simply raised.
// RUN: env WS_STATS=1 WS_STORE_BUFFER=64 WS_NUM_WORKERS=2 %t/dl %t/libffthe.so 2>&1 | FileCheck %s --check-prefix=JOINED
// JOINED-DAG: dso ok
// JOINED-DAG: ws: variant=ffthe workers=2 S=64 delta=32 x=1 {{.*}}x_from={{.*}}dso-fib.c
//
// dlopen'ed after the workers started stealing with delta 8: stopped with
// one line, before the library's code runs.
// RUN: env WS_STORE_BUFFER=64 WS_NUM_WORKERS=2 not %t/late %t/libffthe.so 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: ws: {{.*}}dso-fib.c has x = 1 and needs delta >= 32, but it was loaded after the workers started stealing with delta = 8 (x = {{[0-9]+}} from {{.*}}dso-late.c); link it at load time instead of dlopen'ing it, or compile it with -fws-fencefree-delta=8
// LATE-NOT: dso_fib(20)
//
// A library compiled for another deque: stopped, dlopen'ed or linked.
// RUN: env WS_NUM_WORKERS=2 not %t/dl %t/libthe.so 2>&1 | FileCheck %s --check-prefix=VARIANT
// VARIANT: ws: {{.*}}dso-fib.c was compiled for the the deque (-fws-fencefree=the), but this program runs the ffthe deque; compile it with -fws-fencefree=ffthe
// RUN: %ws-clang -fws-fencefree=ffthe -O2 %S/Inputs/dso-main.c -L%t -lthe -Wl,-rpath,%t -o %t/lt-the
// RUN: env WS_NUM_WORKERS=2 not %t/lt-the 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: ws: modules {{.*}} were compiled for different deque variants
