// ws_spawn calls the spawned function through the value __ws_spawn_begin
// returns (<ws/ws.h>: fn is evaluated once).  ViewReach must see through
// it: fib spawns only itself and reaches no reducer, so its code tests no
// reducer view (fib's instructions per spawn stay main's: 28.1 on thep,
// examples.harness.spawncost); leaves calls a function of another file,
// which may update a reducer, and tests ws_tls_views_max before the child
// it runs at its sync.
// RUN: %ws-clang -fws-fencefree -O1 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --check-prefix=REACH < %t.ll
// RUN: FileCheck %s --check-prefix=PURE < %t.ll
// REACH-LABEL: define internal {{.*}}@leaves.ws(
// REACH:         @ws_tls_views_max
// PURE-LABEL: define internal {{.*}}@fib.ws{{(.body)?}}(
// PURE-NOT:     ws_tls_views_max
// PURE-NOT:     __ws_child_begin
// PURE:       {{^}}}
#include <ws/ws.h>

void consume(long x);

void leaves(long n) {
  if (n < 2) {
    consume(n);
    return;
  }
  ws_spawn_void(leaves, n - 1);
  leaves(n - 2);
  ws_sync();
}

long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}
