// A run that found a race exits with status 66 however the program ends
// with status 0 (issue 34, item 9): exit and a return from main (an exit
// handler), but also _exit, _Exit and quick_exit, which run none.  A
// non-zero status of the program's own is kept.
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %t return > %t.return 2>&1 || echo "exit status $?" >> %t.return
// RUN: FileCheck %s < %t.return
// RUN: %t _exit > %t._exit 2>&1 || echo "exit status $?" >> %t._exit
// RUN: FileCheck %s < %t._exit
// RUN: %t _Exit > %t._Exit 2>&1 || echo "exit status $?" >> %t._Exit
// RUN: FileCheck %s < %t._Exit
// RUN: %t quick_exit > %t.quick 2>&1 || echo "exit status $?" >> %t.quick
// RUN: FileCheck %s < %t.quick
// RUN: %t _exit3 > %t.own 2>&1 || echo "exit status $?" >> %t.own
// RUN: FileCheck %s --check-prefix=OWN < %t.own
// CHECK: ws-race: 1 determinacy race found in this run
// CHECK-NEXT: exit status 66
// OWN: ws-race: 1 determinacy race found in this run
// OWN-NEXT: exit status 3

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ws/ws.h>

static long shared;
static void set(long v) { shared = v; }

int main(int argc, char **argv) {
  ws_spawn_void(set, 1);
  shared = 2;
  ws_sync();
  printf("shared %ld\n", shared);
  const char *how = argc > 1 ? argv[1] : "return";
  fflush(stdout);
  if (!strcmp(how, "_exit"))
    _exit(0);
  if (!strcmp(how, "_Exit"))
    _Exit(0);
  if (!strcmp(how, "quick_exit"))
    quick_exit(0);
  if (!strcmp(how, "_exit3"))
    _exit(3);
  return 0;
}
