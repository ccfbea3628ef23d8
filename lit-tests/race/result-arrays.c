// Results spawned into a local array (RaceResults.h): where no two tasks'
// results share a byte and the function touches no result of a task that
// may be outstanding, the array's accesses and the tasks' stores into it
// are not checked, and a function left without checks keeps no hooks
// (skynet's and nqueens' shapes: 34x the serial elision before, 3x now).
// Every other shape stays checked, and its race is found: one case a run,
// at -O2 (where the analysis has loops and constants to work with) and
// -O0 (where it has neither: everything is checked).
// RUN: %ws-clang -fws-race -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=TREE < %t.ll
// RUN: FileCheck %s --check-prefix=ROW < %t.ll
// RUN: %ws-clang -fws-race -O2 %s -o %t
// RUN: %ws-clang -fws-race -O0 %s -o %t0
// RUN: %t 0 2>&1 | FileCheck %s --check-prefix=CLEAN --implicit-check-not=ws-race
// RUN: %t0 0 2>&1 | FileCheck %s --check-prefix=CLEAN --implicit-check-not=ws-race
// RUN: for c in 1 2 3 4 5 6 7 8; do %t $c > %t.$c 2>&1; echo "case $c exit $?" >> %t.$c; FileCheck %s --check-prefix=RACE -DCASE=$c < %t.$c || exit 1; done
// RUN: for c in 1 2 3 4 5 6 7 8; do %t0 $c > %t.$c 2>&1; echo "case $c exit $?" >> %t.$c; FileCheck %s --check-prefix=RACE -DCASE=$c < %t.$c || exit 1; done

#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

static long leaf(long x) { return 3 * x + 1; }

// skynet's shape: nine results in a loop, the tenth called, read after
// the sync.
// TREE-LABEL: define {{.*}}@tree.ws(
// TREE-NOT: __ws_race_
// TREE: ret i64
static long tree(long first, long n) {
  if (n == 1)
    return first;
  long c = n / 10, sum[10];
  for (int i = 0; i < 9; i++)
    ws_spawn(sum[i], tree, first + i * c, c);
  sum[9] = tree(first + 9 * c, c);
  ws_sync();
  long t = 0;
  for (int i = 0; i < 10; i++)
    t += sum[i];
  return t;
}

// nqueens' shape: a loop of unknown count, each element cleared before
// its spawn, the next one written (not yet a result), some skipped.
// ROW-LABEL: define {{.*}}@row.ws(
// ROW-NOT: __ws_race_
// ROW: ret i64
__attribute__((noinline)) static long row(int n) {
  long count[64];
  long t = 0;
  for (int i = 0; i < n; i++) {
    count[i] = 0;
    if (i % 3 != 1)
      ws_spawn(count[i], leaf, i);
    if (i + 1 < n)
      t += count[i + 1] = i;
  }
  ws_sync();
  for (int i = 0; i < n; i++)
    t += count[i];
  return t;
}

// Each racy shape in a function of its own: its array alone decides.
#define CASE(k, body)                                                          \
  __attribute__((noinline)) static long racy##k(int n) {                      \
    long a[16] = {0}, t = 0;                                                   \
    body;                                                                      \
    ws_sync();                                                                 \
    for (int i = 0; i < 16; i++)                                               \
      t += a[i];                                                               \
    return t;                                                                  \
  }

// Two tasks, one result.
CASE(1, ws_spawn(a[2], leaf, 1); ws_spawn(a[2], leaf, 2))
// One result a loop's tasks share.
CASE(2, for (int i = 0; i < n; i++) ws_spawn(a[5], leaf, i))
// Results that meet again (an index the analysis cannot follow).
CASE(3, for (int i = 0; i < n; i++) ws_spawn(a[i % 2], leaf, i))
// The function reads a result before the sync ...
CASE(4, ws_spawn(a[3], leaf, 3); t += a[3])
// ... in the iteration that spawned it ...
CASE(5, for (int i = 0; i < n; i++) {
  ws_spawn(a[i], leaf, i);
  t += a[i];
})
// ... an iteration later.
CASE(6, for (int i = 1; i < n; i++) {
  ws_spawn(a[i], leaf, i);
  t += a[i - 1];
})
// The loop runs again before the sync: its results meet.
CASE(7, for (int o = 0; o < 2; o++) for (int i = 0; i < n; i++) ws_spawn(a[i], leaf, i))
// The function writes bytes of a result.
CASE(8, ws_spawn(a[4], leaf, 4); *(int *)((char *)&a[4] + 4) = 7)

static long racy(int c, int n) {
  switch (c) {
  case 1: return racy1(n);
  case 2: return racy2(n);
  case 3: return racy3(n);
  case 4: return racy4(n);
  case 5: return racy5(n);
  case 6: return racy6(n);
  case 7: return racy7(n);
  default: return racy8(n);
  }
}

int main(int argc, char **argv) {
  int c = argc > 1 ? atoi(argv[1]) : 0;
  if (c == 0) {
    printf("tree=%ld row=%ld\n", tree(0, 1000), row(10 + (argc > 2)));
    return 0;
  }
  printf("case %d: %ld\n", c, racy(c, 4 + (argc > 2)));
  return 0;
}
// CLEAN: tree=499500 row=142
// RACE: ws-race: determinacy race on address
// RACE: case [[CASE]] exit 66
