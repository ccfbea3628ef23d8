#include <stdio.h>
#include <stdlib.h>
#include <ws/abi.h>
#include <ws/ws.h>

static long counter;

/* A spawning function (calls of it go to its clone), which with deep == 0
 * only counts. */
void bump(long *c, int deep) {
  if (deep) {
    ws_spawn_void(bump, c, deep - 1);
    ws_sync();
  } else {
    __atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
  }
}

static void spin(long n) {
  for (volatile long i = 0; i < n; i++)
    ;
}

/* One spawn, and a call between spawn and sync that split and private
 * publish the tail before. */
void g(long n) {
  ws_spawn_void(bump, &counter, 0);
  spin(n);
  ws_sync();
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 1000;
  ws_slot *tail = __ws_tail();
  long moved = 0;
  for (long i = 0; i < iters; i++) {
    g(i & 7);
    moved += __ws_tail() != tail;
  }
  printf("counter=%ld expected=%ld tail-moved=%ld\n", counter, iters, moved);
  return counter != iters || moved != 0;
}
