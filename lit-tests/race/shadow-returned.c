// The shadow of memory forgotten (runtime/src/race/shadow.c, zero_pairs):
// a block of 64 MiB or more gives its shadow's pages back to the kernel
// when it is freed; a smaller one is cleared in place, as malloc is likely
// to hand it out again.  Two 96 MiB blocks written by tasks and freed:
// the process's resident set falls back (the blocks are unmapped by
// malloc, and 384 MiB of their shadow go back); eight 4 MiB blocks freed
// and allocated again keep their shadow resident, at the same addresses,
// and stay clean.
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %t | FileCheck %s --implicit-check-not=ws-race

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ws/ws.h>

static long resident_mib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
      break;
  if (f)
    fclose(f);
  return kb / 1024;
}

static void fill(char *p, size_t n, int v) { memset(p, v, n); }

int main(void) {
  size_t big = (size_t)96 << 20;
  char *a = malloc(big), *b = malloc(big);
  if (!a || !b)
    return 1;
  ws_spawn_void(fill, a, big, 1);
  ws_spawn_void(fill, b, big, 2);
  ws_sync();
  long during = resident_mib();
  free(a);
  free(b);
  long after = resident_mib();
  // CHECK: big blocks: resident before free >= 500 MiB: yes, after free < 64 MiB: yes
  printf("big blocks: resident before free >= 500 MiB: %s, after free < 64 MiB: %s\n",
         during >= 500 ? "yes" : "no", after < 64 ? "yes" : "no");
  if (during < 500 || after >= 64)
    printf("resident %ld MiB, then %ld MiB\n", during, after);
  long sum = 0;
  for (int round = 0; round < 8; round++) {
    size_t n = (size_t)4 << 20;
    char *p = malloc(n), *q = malloc(n);
    if (!p || !q)
      return 1;
    ws_spawn_void(fill, p, n, round);
    ws_spawn_void(fill, q, n, round + 1);
    ws_sync();
    sum += p[n - 1] + q[0];
    free(p);
    free(q);
  }
  // CHECK: small blocks: 64
  printf("small blocks: %ld\n", sum);
  return 0;
}
