// __attribute__((cleanup(f))), C's destructors (issue 33, item 4): a task
// uses the buffer a cleanup frees, or the mutex one unlocks, past the end
// of the local's scope.  The clang plugin names the cleanup function on
// the local; ws-lower syncs before the call as before a C++ destructor
// (before issue 33 the cleanup ran first: use after free).  Every variant
// at -O0 and -O2, the default at -O1 and -O3, 1/2/4/16 workers; the serial
// elision prints the same.  (As for a C++ destructor, the task must be
// given the local's value: reached only through a global, it is not seen.)
// RUN: for v in %ws-variants; do for o in 0 2; do %ws-clang -fws-fencefree=$v -O$o %s -o %t.b.$v.O$o -lpthread || exit 1; done; done
// RUN: for o in 1 3; do %ws-clang -fws-fencefree -O$o %s -o %t.b.O$o -lpthread || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --expect '^ok$' %t.b.* | FileCheck %s
// RUN: %clang -I%ws-include -O0 %s -o %t.serial -lpthread && %t.serial | FileCheck %s --check-prefix=SERIAL
// RUN: %ws-clang -fws-fencefree -O1 -c %s -o /dev/null -Rpass-analysis=ws-lower 2>&1 | FileCheck %s --check-prefix=REMARK
// The annotation that names the cleanup is gone once ws-lower has read it.
// RUN: %ws-clang -fws-fencefree -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: ok
// IR-NOT: ws.cleanup
// IR-NOT: llvm.var.annotation

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ws/ws.h>

enum { N = 64 };

static void release(long **p) {
  memset(*p, 0xff, N * sizeof(long)); /* what a freed block may hold */
  free(*p);
}
static void sum(long *out, const long *buf) {
  long s = 0;
  for (int i = 0; i < N; i++)
    s += buf[i];
  *out = s;
}

static long buffer(int k) {
  long r;
  {
    __attribute__((cleanup(release))) long *buf = malloc(N * sizeof(long));
    for (int i = 0; i < N; i++)
      buf[i] = i + k;
    ws_spawn_void(sum, &r, buf);
  }
  // REMARK-DAG: cleanup.c:[[@LINE-1]]:3: remark: implicit sync before the end of a local cleaned up by release: a task spawned earlier may still use it
  ws_sync();
  return r;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void unlock(pthread_mutex_t **m) { pthread_mutex_unlock(*m); }
/* The task is given the mutex its spawner holds: still held? */
static void check_locked(int *out, pthread_mutex_t *m) {
  int rc = pthread_mutex_trylock(m);
  if (rc == 0)
    pthread_mutex_unlock(m);
  *out = rc == EBUSY;
}

static int mutex(void) {
  int seen[8];
  for (int i = 0; i < 8; i++) {
    __attribute__((cleanup(unlock))) pthread_mutex_t *m = &lock;
    pthread_mutex_lock(m);
    ws_spawn_void(check_locked, &seen[i], m);
  }
  // REMARK-DAG: cleanup.c:[[@LINE-1]]:3: remark: implicit sync before the end of a local cleaned up by unlock
  int fails = 0;
  for (int i = 0; i < 8; i++)
    fails += !seen[i];
  return fails;
}

int main(void) {
  int fails = 0;
  for (int k = 0; k < 200; k++)
    fails += buffer(k) != (long)N * (N - 1) / 2 + (long)N * k;
  for (int k = 0; k < 50; k++)
    fails += mutex();
  printf(fails ? "FAIL %d\n" : "ok\n", fails);
  return 0;
}
