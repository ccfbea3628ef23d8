// Heap memory written by two tasks races; so does a counter that two tasks
// update under a mutex: -fws-race reports determinacy races, and the lock
// orders the updates but not which comes first (docs/race.md).
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %t > %t.out 2>&1 || echo "exit status $?" >> %t.out
// RUN: FileCheck %s < %t.out

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long locked_count;

static void set(long *p, long v) {
  p[3] = v; // CHECK-DAG: #0 set {{.*}}heap-and-mutex.c:[[@LINE]]:
}

static void count(long by) {
  pthread_mutex_lock(&lock);
  locked_count += by; // CHECK-DAG: #0 count {{.*}}heap-and-mutex.c:[[@LINE]]:
  pthread_mutex_unlock(&lock);
}

int main(void) {
  long *p = malloc(8 * sizeof *p);
  ws_spawn_void(set, p, 1);
  ws_spawn_void(set, p, 2);
  ws_spawn_void(count, 1);
  ws_spawn_void(count, 2);
  ws_sync();
  printf("p[3]=%ld count=%ld\n", p[3], locked_count);
  free(p);
  return 0;
}
// CHECK: ws-race: 2 determinacy races found in this run
// CHECK-NEXT: exit status 66
