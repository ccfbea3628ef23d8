// Misuses of a reducer that docs/language.md says stop the program with one
// line naming the call and exit status 2 (issue 23, items 5 and 6), on the
// path where the task ran on its parent's thread, unstolen (always at one
// worker), as well as where it was stolen: a task reading or unregistering
// its parent's reducer, as the first spawn after the registration (the
// slot the parent registered at) or a later one; the parent reading it
// before its ws_sync; a task that registers a reducer and returns without
// unregistering it, with no reducer of the parent's around, as the
// parent's first spawn after a registration, or a later one; an
// unregister while the tasks that update the reducer are outstanding,
// and the function doing so called twice (the second registration at the
// same address was blamed before: "registered already").
// RUN: for v in %ws-variants; do %ws-clang -fws-fencefree=$v -O1 %s -o %t.$v || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^ws: ws_reducer_get: not the strand that registered this reducer [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- child-get-first | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^ws: ws_reducer_get: (not the strand that registered this reducer|spawns made since this reducer was registered are not synced) [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- child-get-later | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^ws: ws_reducer_unregister: not the strand that registered this reducer [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- child-unregister-first | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^ws: ws_reducer_get: spawns made since this reducer was registered are not synced [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- get-before-sync | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^leaked \| (leak-[a-z]+: 0 \| )?ws: ws_reducer_register: a task returned without unregistering the reducer it registered[^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- leak-alone | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^leaked \| (leak-[a-z]+: 0 \| )?ws: ws_reducer_register: a task returned without unregistering the reducer it registered[^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- leak-first | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^leaked \| (leak-[a-z]+: 0 \| )?ws: ws_reducer_register: a task returned without unregistering the reducer it registered[^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- leak-later | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^ws: ws_reducer_unregister: spawns made since this reducer was registered are not synced [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- unregister-early | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^ws: ws_reducer_unregister: spawns made since this reducer was registered are not synced [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- unregister-early-twice | FileCheck %s
// A task that updates its parent's reducer and then registers it: on the
// parent's thread the registration is found; where the task was stolen
// (in the second run always: the oldest of 257, waited for, as FF-THE and
// FF-CL steal only past delta tasks), its context holds the update, and
// the message says so (it once blamed a later correct registration for
// such a stale view).
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^ws: ws_reducer_register: (this reducer is registered already|this task updated a reducer at this address that it did not register: [^|]*)$' $(for v in %ws-variants; do echo %t.$v; done) -- child-reregister | FileCheck %s
// RUN: %ws-run --workers 2,4,16 --env WS_STORE_BUFFER=56 --status 2 --expect '^ws: ws_reducer_register: this task updated a reducer at this address that it did not register: [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- stolen-reregister | FileCheck %s
// A program that exits with status 0 while a reducer is still registered
// stops the same way (it cannot be told from such a task); another exit
// status is kept, with no message.
// RUN: %ws-run --workers 1,2,4,16 --status 2 --expect '^exit-registered: 0 \| ws: ws_reducer_register: a task returned without unregistering the reducer it registered, or the program exits with a reducer registered [^|]*$' $(for v in %ws-variants; do echo %t.$v; done) -- exit-registered | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --status 3 --expect '^exit-status-kept: 0$' $(for v in %ws-variants; do echo %t.$v; done) -- exit-status-kept | FileCheck %s
// CHECK: ws-run: all {{[0-9]+}} runs as expected
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ws/ws.h>

static void add(ws_reducer *r, long x) { ws_reducer_sum_long(r, x); }
/* The misused calls say when they return: the program must stop in them. */
static void get(ws_reducer *r) {
  (void)ws_reducer_get(r);
  printf("ws_reducer_get returned\n");
}
static void unregister(ws_reducer *r) {
  ws_reducer_unregister(r);
  printf("ws_reducer_unregister returned\n");
}
static void nothing(ws_reducer *r) { (void)r; }

static void reregister(ws_reducer *r) {
  static long var;
  ws_reducer_sum_long(r, 1);
  ws_reducer_register(r, &ws_monoid_sum_long, &var);
  printf("ws_reducer_register returned\n");
}

static atomic_int stolen;
static void reregister_stolen(ws_reducer *r) {
  atomic_store(&stolen, 1);
  reregister(r);
}

/* A spawn and a sync: split and private deques answer thieves here. */
static void poll_once(void) {
  ws_spawn_void(nothing, NULL);
  ws_sync();
}

/* Registers a reducer of its own and returns, still registered. */
static void leak(ws_reducer *r) {
  static long var;
  static ws_reducer own;
  (void)r;
  ws_reducer_register(&own, &ws_monoid_sum_long, &var);
  printf("leaked\n");
}

/* The parent: registers r, spawns `first` (in the slot r was registered
 * at), then `later`, syncs and unregisters. */
static long parent(void (*first)(ws_reducer *), void (*later)(ws_reducer *)) {
  long total = 0;
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &total);
  ws_spawn_void(first, &r);
  ws_spawn_void(later, &r);
  ws_sync();
  ws_reducer_unregister(&r);
  return total;
}

static long get_before_sync(void) {
  long total = 0;
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &total);
  ws_spawn_void(add, &r, 1);
  get(&r);
  ws_sync();
  ws_reducer_unregister(&r);
  return total;
}

static long stolen_reregister(void) {
  long total = 0;
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &total);
  ws_spawn_void(reregister_stolen, &r);
  for (int i = 0; i < 256; i++)
    ws_spawn_void(nothing, &r);
  while (!atomic_load(&stolen))
    poll_once();
  ws_sync();
  ws_reducer_unregister(&r);
  return total;
}

static long leak_alone(void) {
  ws_spawn_void(leak, NULL);
  ws_sync();
  return 0;
}

/* Unregisters while the tasks that update the reducer are outstanding. */
static long unregister_early(void) {
  long total = 0;
  ws_reducer r;
  ws_reducer_register(&r, &ws_monoid_sum_long, &total);
  for (long i = 0; i < 100; i++)
    ws_spawn_void(add, &r, i);
  unregister(&r);
  ws_sync();
  return total;
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  long v = -1;
  if (!strcmp(c, "child-get-first"))
    v = parent(get, nothing);
  else if (!strcmp(c, "child-get-later"))
    v = parent(nothing, get);
  else if (!strcmp(c, "child-unregister-first"))
    v = parent(unregister, nothing);
  else if (!strcmp(c, "get-before-sync"))
    v = get_before_sync();
  else if (!strcmp(c, "leak-alone"))
    v = leak_alone();
  else if (!strcmp(c, "leak-first"))
    v = parent(leak, nothing);
  else if (!strcmp(c, "leak-later"))
    v = parent(nothing, leak);
  else if (!strcmp(c, "child-reregister"))
    v = parent(reregister, nothing);
  else if (!strcmp(c, "stolen-reregister"))
    v = stolen_reregister();
  else if (!strcmp(c, "unregister-early"))
    v = unregister_early();
  else if (!strcmp(c, "unregister-early-twice"))
    v = unregister_early() + unregister_early();
  long total = 0;
  ws_reducer r;
  if (!strcmp(c, "exit-registered") || !strcmp(c, "exit-status-kept")) {
    ws_reducer_register(&r, &ws_monoid_sum_long, &total);
    v = parent(nothing, nothing);
  }
  printf("%s: %ld\n", c, v);
  if (!strcmp(c, "exit-status-kept"))
    exit(3);
  return 0;
}
