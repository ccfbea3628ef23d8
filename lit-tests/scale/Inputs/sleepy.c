/*
 * sleepy.c — a region whose serial part is time the counts cannot see (a
 * 30 ms sleep before eight equal leaves in parallel), and one without it:
 * the default -fws-scale report notes the first (its critical path took
 * far more time than its share of the instructions), not the second.
 */
#include <stdio.h>
#include <unistd.h>
#include <ws/scale.h>
#include <ws/ws.h>

static long leaf(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    s += i ^ (s >> 3);
  return s;
}

static long eight(long n) {
  long r[8];
  for (int i = 0; i < 8; i++)
    ws_spawn(r[i], leaf, n);
  ws_sync();
  long s = 0;
  for (int i = 0; i < 8; i++)
    s ^= r[i];
  return s;
}

int main(void) {
  ws_scale_begin("sleepy");
  usleep(30000);
  long a = eight(100000);
  ws_scale_end("sleepy");
  ws_scale_begin("busy");
  long b = eight(100000);
  ws_scale_end("busy");
  printf("checksum %ld\n", (a ^ b) & 1);
  return 0;
}
