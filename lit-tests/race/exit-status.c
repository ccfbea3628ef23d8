// A run that found a race exits with status 66 however the program ends
// with status 0 (issue 34, item 9): exit and a return from main (an exit
// handler), but also _exit, _Exit and quick_exit, which run none.  A
// non-zero status of the program's own is kept.
// RUN: %ws-clang -fws-race -O0 %s -o %t0
// RUN: %t0 return > %t0.return 2>&1 || echo "exit status $?" >> %t0.return
// RUN: FileCheck %s < %t0.return
// RUN: %t0 _exit > %t0._exit 2>&1 || echo "exit status $?" >> %t0._exit
// RUN: FileCheck %s < %t0._exit
// RUN: %t0 _Exit > %t0._Exit 2>&1 || echo "exit status $?" >> %t0._Exit
// RUN: FileCheck %s < %t0._Exit
// RUN: %t0 quick_exit > %t0.quick 2>&1 || echo "exit status $?" >> %t0.quick
// RUN: FileCheck %s < %t0.quick
// RUN: %t0 _exit3 > %t0.own 2>&1 || echo "exit status $?" >> %t0.own
// RUN: FileCheck %s --check-prefix=OWN < %t0.own
// RUN: %ws-clang -fws-race -O2 %s -o %t2
// RUN: %t2 return > %t2.return 2>&1 || echo "exit status $?" >> %t2.return
// RUN: FileCheck %s < %t2.return
// RUN: %t2 _exit > %t2._exit 2>&1 || echo "exit status $?" >> %t2._exit
// RUN: FileCheck %s < %t2._exit
// RUN: %t2 _Exit > %t2._Exit 2>&1 || echo "exit status $?" >> %t2._Exit
// RUN: FileCheck %s < %t2._Exit
// RUN: %t2 quick_exit > %t2.quick 2>&1 || echo "exit status $?" >> %t2.quick
// RUN: FileCheck %s < %t2.quick
// RUN: %t2 _exit3 > %t2.own 2>&1 || echo "exit status $?" >> %t2.own
// RUN: FileCheck %s --check-prefix=OWN < %t2.own
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
