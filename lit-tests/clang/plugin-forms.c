// The plugin without the wrapper: -fplugin alone defines WS_FENCEFREE and
// installs the passes (options as -fplugin-arg-wsff-*); the raw
// -fpass-plugin form needs the define and takes the defaults.
// RUN: %clang -O2 -I%ws-include -fplugin=%plugin -fplugin-arg-wsff-variant=ffcl %S/Inputs/fib.c %libws -lpthread -o %t.fplugin
// RUN: env WS_STATS=1 %ws-run --workers 2 %t.fplugin -- 20 2>&1 | FileCheck %s --check-prefix=FPLUGIN
// RUN: env WS_STATS=1 WS_NUM_WORKERS=1 %t.fplugin 5 2>&1 | FileCheck %s --check-prefix=FPLUGIN-VARIANT
// RUN: %clang -O2 -I%ws-include -DWS_FENCEFREE -fpass-plugin=%plugin %S/Inputs/fib.c %libws -lpthread -o %t.passplugin
// RUN: env WS_STATS=1 WS_NUM_WORKERS=1 %t.passplugin 20 2>&1 | FileCheck %s --check-prefix=PASSPLUGIN
// A bad plugin option is reported by clang.
// RUN: not %clang -c -I%ws-include -fplugin=%plugin -fplugin-arg-wsff-variant=nope %S/Inputs/fib.c -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=BADARG -DVARIANTS='%{variants}'

// FPLUGIN: workers=2: fib(20) = 6765
// FPLUGIN-VARIANT: ws: variant=ffcl
// PASSPLUGIN-DAG: fib(20) = 6765
// PASSPLUGIN-DAG: ws: variant=ffmb
// BADARG: error: wsff option variant='nope': expected [[VARIANTS]]
