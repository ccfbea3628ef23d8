// -fws-race makes a spawning function's SP-bags procedure at its first
// spawn, not at its entry: until then (and for good in a call that
// returns before spawning, a search's pruned node) what it runs belongs to
// its caller's current strand, as in the serial elision.  And a task whose
// first access is a read that changes nothing (the granule's writer
// serial, its reader a parallel sibling, kept) makes no strand for it.
// Each part below has its verdict: the races in pruned calls, in calls
// entered one inside another, in a pruned call run by a task, and between
// readers and writers are reported; what runs serially (a function's
// accesses before its first spawn, its children's before its sync's end)
// is not.
// RUN: %ws-clang -fws-race -O0 %s -o %t0
// RUN: %t0 > %t0.out 2>&1 || echo "exit status $?" >> %t0.out
// RUN: FileCheck %s --implicit-check-not=ws-race < %t0.out
// RUN: %ws-clang -fws-race -O2 %s -o %t2
// RUN: %t2 > %t2.out 2>&1 || echo "exit status $?" >> %t2.out
// RUN: FileCheck %s --implicit-check-not=ws-race < %t2.out

#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

#define NOINLINE __attribute__((noinline))

static int g1, g2, g2b, g3, g4, g4b, g5, g6, g7, g8;

static NOINLINE int leaf(int k) { return k + 1; }

// Returns before its spawn when k >= 0 (pruned), after writing *p.
static NOINLINE int pruned(int *p, int k) {
  *p = k; // PRUNED-WRITE
  if (k >= 0)
    return k;
  int r;
  ws_spawn(r, leaf, k);
  ws_sync();
  return r;
}

static NOINLINE int set1(int k) {
  g1 = k; // SET1
  return k;
}

// 1. A task writes g1; the continuation calls a pruned function that
// writes it too: a race.
static NOINLINE int part1(void) {
  int a;
  ws_spawn(a, set1, 1);
  int b = pruned(&g1, 2);
  ws_sync();
  return a + b;
}

static NOINLINE int get2(int k) { return g2 + k; }
static NOINLINE int put2(int k) {
  g2b = g2 + k;
  return k;
}

// 2. A function writes g2 before its first spawn; its tasks read it, one
// writes g2b, and it reads both after the sync: all serial, no report
// (its sync ends its own procedure's children, not its caller's).
static NOINLINE int part2(int k) {
  g2 = k;
  int a, b;
  ws_spawn(a, get2, 1);
  ws_spawn(b, put2, 2);
  ws_sync();
  return a + b + g2 + g2b;
}

static NOINLINE int task3(int k) { return pruned(&g3, k); }

// 3. A task calls a pruned function that writes g3; the continuation
// reads g3: a race.
static NOINLINE int part3(void) {
  int a;
  ws_spawn(a, task3, 3);
  int b = g3; // READ3
  ws_sync();
  return a + b;
}

// 4. Calls entered one inside another before either spawns: the inner
// one spawns and returns, then the outer one spawns a task that writes g4
// while its continuation writes g4 too: a race.  The inner one's own
// task and continuation touch g4 only serially.
static NOINLINE int set4(int k) {
  g4 = k; // SET4
  return k;
}
static NOINLINE int put4(int k) {
  g4b = k;
  return k;
}
static NOINLINE int inner4(int k) {
  g4 = k;
  int a;
  ws_spawn(a, put4, k);
  ws_sync();
  return a + g4 + g4b;
}
static NOINLINE int outer4(int k) {
  int x = inner4(k);
  int a;
  ws_spawn(a, set4, x);
  g4 = x + 1; // CONT4
  ws_sync();
  return a;
}

// 5. Tasks that only read what their parent wrote before spawning (g5):
// no report, though each task after the first finds a parallel reader.
// Tasks that read g6, which the continuation wrote before the sync: a
// race, reported once.
static NOINLINE int get5(int k) { return g5 + k; }
static NOINLINE int get6(int k) { return g6 + k; } // GET6
static NOINLINE int part5(void) {
  g5 = 5;
  int r[4];
  for (int i = 0; i < 4; i++)
    ws_spawn(r[i], get5, i);
  ws_sync();
  int s[3];
  for (int i = 0; i < 3; i++)
    ws_spawn(s[i], get6, i);
  g6 = 6; // CONT6
  ws_sync();
  return r[0] + r[3] + s[0] + s[2];
}

// 6. Two tasks read g7 (the second one read first, the first finds it the
// granule's parallel reader and makes no strand), then a sibling spawned
// before both writes it: a race with the kept reader.
static NOINLINE int get7(int k) { return g7 + k; } // GET7
static NOINLINE int set7(int k) {
  g7 = k; // SET7
  return k;
}
static NOINLINE int part6(void) {
  int w, a, b;
  ws_spawn(w, set7, 7);
  ws_spawn(a, get7, 1);
  ws_spawn(b, get7, 2);
  ws_sync();
  return w + a + b;
}

// 7. A task whose first read makes no strand writes afterwards: its write
// and a sibling's read of g8 race.
static NOINLINE int readwrite8(int k) {
  int v = g7 + k; // a read that changes nothing (g7's reader kept)
  g8 = v;         // WRITE8
  return v;
}
static NOINLINE int get8(int k) { return g8 + k; } // GET8
static NOINLINE int part7(void) {
  int a, b, c;
  ws_spawn(a, get8, 1);
  ws_spawn(b, readwrite8, 2);
  ws_spawn(c, get7, 3);
  ws_sync();
  return a + b + c;
}

// 8. A task's function enters, does not spawn on its path, and calls one
// that spawns twice into a heap array and reads it after its sync (a
// ws_for piece's leaf calling its body): no report.  The first spawn made
// the callee's procedure the task's own, with the function between them
// still counted as entered and not spawned; the second spawn took that
// count for its own function's and made another procedure, which the
// sync never ended: the reads after it were reported racing with the
// tasks' writes (ws-smith seed 276 case 89, every -O).
static NOINLINE int two8(int k) {
  int *r = malloc(2 * sizeof *r);
  ws_spawn(r[0], leaf, k);
  ws_spawn(r[1], leaf, k + 1);
  ws_sync();
  int s = r[0] + r[1];
  free(r);
  return s;
}
static NOINLINE int range8(int k) {
  if (k >= 0)
    return two8(k) + two8(k + 1);
  int a;
  ws_spawn(a, leaf, k);
  ws_sync();
  return a;
}
static NOINLINE int part8(void) {
  int a, b;
  ws_spawn(a, range8, 8);
  ws_spawn(b, range8, 9);
  ws_sync();
  return a + b;
}

int main(void) {
  printf("part1\n");
  fflush(stdout);
  int t = part1();
  printf("part2\n");
  fflush(stdout);
  t += part2(2);
  printf("part3\n");
  fflush(stdout);
  t += part3();
  printf("part4\n");
  fflush(stdout);
  t += outer4(4);
  printf("part5\n");
  fflush(stdout);
  t += part5();
  printf("part6\n");
  fflush(stdout);
  t += part6();
  printf("part7\n");
  fflush(stdout);
  t += part7();
  printf("part8\n");
  fflush(stdout);
  t += part8();
  printf("done %d\n", t);
  return 0;
}

// CHECK-LABEL: part1
// CHECK: ws-race: determinacy race
// CHECK-NEXT: write here:
// CHECK-NEXT: #0 set1 {{.*}}lazy-procedures.c:[[#SET1:]]:
// CHECK: logically parallel write before it
// CHECK-NEXT: #0 pruned {{.*}}lazy-procedures.c:[[#PW:]]:
// CHECK-LABEL: part2
// CHECK-LABEL: part3
// CHECK: ws-race: determinacy race
// CHECK-NEXT: write here:
// CHECK-NEXT: #0 pruned {{.*}}lazy-procedures.c:[[#PW]]:
// CHECK: logically parallel read before it
// CHECK-NEXT: #0 part3 {{.*}}lazy-procedures.c:[[#READ3:]]:
// CHECK-LABEL: part4
// CHECK: ws-race: determinacy race
// CHECK-NEXT: write here:
// CHECK-NEXT: #0 set4 {{.*}}lazy-procedures.c:[[#SET4:]]:
// CHECK: logically parallel write before it
// CHECK-NEXT: #0 outer4 {{.*}}lazy-procedures.c:[[#CONT4:]]:
// CHECK-LABEL: part5
// CHECK: ws-race: determinacy race
// CHECK-NEXT: read here:
// CHECK-NEXT: #0 get6 {{.*}}lazy-procedures.c:[[#GET6:]]:
// CHECK: logically parallel write before it
// CHECK-NEXT: #0 part5 {{.*}}lazy-procedures.c:[[#CONT6:]]:
// CHECK-LABEL: part6
// CHECK: ws-race: determinacy race
// CHECK-NEXT: write here:
// CHECK-NEXT: #0 set7 {{.*}}lazy-procedures.c:[[#SET7:]]:
// CHECK: logically parallel read before it
// CHECK-NEXT: #0 get7 {{.*}}lazy-procedures.c:[[#GET7:]]:
// CHECK-LABEL: part7
// CHECK: ws-race: determinacy race
// CHECK-NEXT: read here:
// CHECK-NEXT: #0 get8 {{.*}}lazy-procedures.c:[[#GET8:]]:
// CHECK: logically parallel write before it
// CHECK-NEXT: #0 readwrite8 {{.*}}lazy-procedures.c:[[#WRITE8:]]:
// CHECK-LABEL: part8
// CHECK: done
// CHECK: ws-race: 6 determinacy races found in this run
// CHECK-NEXT: exit status 66
