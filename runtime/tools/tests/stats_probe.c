/* stats_probe.c — a program on the wsff runtime that does nothing but ask
 * for the worker count (which links the runtime in): with WS_STATS=1 the
 * runtime prints at exit the S it resolved and where it came from. */
#include <stdio.h>

#include "ws/ws.h"

int main(void) {
  printf("workers=%d\n", ws_num_workers());
  return 0;
}
