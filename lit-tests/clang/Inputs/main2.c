#include <stdio.h>
#include <ws/ws.h>
long sum(long lo, long hi);
int main(void) {
  long s;
  ws_spawn(s, sum, 1, 101);
  ws_sync();
  printf("sum = %ld\n", s);
  return 0;
}
