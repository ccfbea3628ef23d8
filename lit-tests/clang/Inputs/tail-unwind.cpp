/* tail-unwind N: N calls of g from main (through its entry point), every
 * other one throwing while g's spawn is outstanding; prints how many were
 * caught and after how many the tail was not where it was. */
#include <stdio.h>
#include <stdlib.h>
#include <ws/abi.h>
#include <ws/ws.h>

static long counter;

/* Reads memory only: neither it nor its task publishes the tail. */
__attribute__((noinline, pure)) static long twice(long n) { return 2 * n; }

/* Before the throw, split and private publish the tail one slot up; the
 * implicit sync takes the task back but stores no tail. */
void g(long n) {
  long r;
  ws_spawn(r, twice, n);
  if (n & 1)
    throw n;
  ws_sync();
  counter += r;
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 1000;
  ws_slot *tail = __ws_tail();
  long moved = 0, caught = 0;
  for (long i = 0; i < iters; i++) {
    try {
      g(i);
    } catch (long) {
      caught++;
    }
    moved += __ws_tail() != tail;
  }
  printf("caught=%ld tail-moved=%ld\n", caught, moved);
  return caught != iters / 2 || moved != 0;
}
