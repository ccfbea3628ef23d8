// realloc that shrinks a block in place frees its tail, which must forget
// its accesses (issue 34, item 2): here the continuation writes a block and
// shrinks it, and the task run at the sync, logically parallel with the
// continuation, receives the freed tail from malloc (glibc hands a freed
// chunk of that size back first; the output says it did).  No race.
// RUN: %ws-clang -fws-race -O0 %s -o %t.O0
// RUN: %ws-clang -fws-race -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s --implicit-check-not=ws-race
// RUN: %t.O2 2>&1 | FileCheck %s --implicit-check-not=ws-race
// CHECK: realloc shrunk=in-place tail=received sum=ok

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

static unsigned char *got;

static void user(size_t n) {
  unsigned char *q = malloc(n);
  for (size_t i = 0; i < n; i++)
    q[i] = (unsigned char)i;
  got = q;
}

int main(void) {
  char *volatile keep = malloc(16); // not the top chunk: the tail is freed, not merged
  ws_spawn_void(user, 224);
  char *p = malloc(256);
  for (int i = 0; i < 256; i++)
    p[i] = (char)(i + 1);
  uintptr_t was = (uintptr_t)p;
  p = realloc(p, 24);
  int in_place = (uintptr_t)p == was;
  ws_sync();
  long sum = 0;
  for (int i = 0; i < 224; i++)
    sum += got[i];
  printf("realloc shrunk=%s tail=%s sum=%s\n", in_place ? "in-place" : "moved",
         (uintptr_t)got > was && (uintptr_t)got < was + 256 ? "received" : "elsewhere",
         sum == 224 * 223 / 2 ? "ok" : "bad");
  free(p);
  free(got);
  free(keep);
  return 0;
}
