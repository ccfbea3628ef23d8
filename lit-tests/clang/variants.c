// Every exactly-once variant (%ws-variants: the rows of ws/variants.def),
// 1, 2 and 4 workers: fib and a program that exercises every kind of spawn
// (scalars of each type, structs both ways, byval copies, function
// pointers, spawn loops, branches, early returns, ws_for).
// RUN: for v in %ws-variants; do \
// RUN:   %ws-clang -fws-fencefree=$v -O2 %S/Inputs/spawns.c -o %t.$v && \
// RUN:   %ws-clang -fws-fencefree=$v -O2 %S/Inputs/fib.c -o %t.fib.$v || exit 1; \
// RUN: done
// RUN: %ws-run --expect '^ok$' $(for v in %ws-variants; do echo %t.$v; done) | FileCheck %s --check-prefix=SPAWNS -D#VARIANTS=%ws-variant-count
// RUN: %ws-run --expect '^fib\(27\) = 196418$' $(for v in %ws-variants; do echo %t.fib.$v; done) -- 27 | FileCheck %s --check-prefix=FIB -D#VARIANTS=%ws-variant-count

// SPAWNS: ws-run: all [[#mul(VARIANTS,3)]] runs as expected
// FIB: ws-run: all [[#mul(VARIANTS,3)]] runs as expected
