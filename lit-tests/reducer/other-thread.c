// A reducer registered by one thread and updated by another (issue 23,
// item 2): the main thread registers it and adds 1000 through a spawning
// function; a thread the program created calls the same function, whose
// call is handed to the workers (or, at one worker, run on that thread).
// Its updates have no serial order with the main thread's and nothing
// would reduce them into the variable: they were lost (total 1000, not
// 2000) with no message.  Now the program stops with one line naming
// ws_reducer_view and exit status 2, for a commutative monoid (sum) and an
// ordered one alike; a reducer the thread registered itself works
// (tests/external.c).  Every variant, 1/2/4/16 workers.
// RUN: for v in %ws-variants; do %ws-clang -fws-fencefree=$v -O1 %s -o %t.$v -lpthread || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^ws: ws_reducer_view: this thread did not register this reducer [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- sum | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^ws: ws_reducer_view: this thread did not register this reducer [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- ordered | FileCheck %s
// CHECK: ws-run: all {{[0-9]+}} runs as expected
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <ws/ws.h>

/* The last of the values seen, in serial order: associative, not
 * commutative. */
static void last_identity(void *v) { *(long *)v = -1; }
static void last_reduce(void *l, void *r) {
  if (*(long *)r >= 0)
    *(long *)l = *(long *)r;
}
static const ws_monoid last = {sizeof(long), _Alignof(long), last_identity,
                               last_reduce, NULL, 0};

static void put(ws_reducer *r, long lo, long hi) {
  if (hi - lo == 1) {
    long *v = ws_reducer_view(r);
    *v = r->monoid == &last ? lo : *v + 1;
    return;
  }
  long mid = lo + (hi - lo) / 2;
  ws_spawn_void(put, r, lo, mid);
  put(r, mid, hi);
  ws_sync();
}

static void *other(void *r) {
  put(r, 0, 1000);
  return NULL;
}

int main(int argc, char **argv) {
  int ordered = argc > 1 && !strcmp(argv[1], "ordered");
  long total = ordered ? -1 : 0;
  ws_reducer r;
  ws_reducer_register(&r, ordered ? &last : &ws_monoid_sum_long, &total);
  put(&r, 0, 1000);
  pthread_t t;
  if (pthread_create(&t, NULL, other, &r) || pthread_join(t, NULL))
    return 1;
  ws_reducer_unregister(&r);
  printf("total=%ld\n", total);
  return 0;
}
