/*
 * entry_wake — a sleeping thief asks the next entry point into spawning
 * code to wake it (idle.c), and stops asking once its wakes find nothing
 * (scheduler.c, the entry credit).  The main thread binds, then each time
 * the request appears in its entry word it makes an entry (__ws_tail),
 * which must clear it.  Fails when the thief never asks, when an entry
 * leaves the request standing, or when it is still asking after 200
 * fruitless wakes (the credit is 8).  Prints "entry_wake: ok".
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ws/abi.h>

#include "worker.h"

static void fail(const char *what) {
  fprintf(stderr, "entry_wake: %s\n", what);
  exit(1);
}

static int requested(void) {
  return atomic_load_explicit(&ws_my_dq.entry.e.wake, ws_acquire) != 0;
}

/* Polls for the thief's request for up to ms milliseconds. */
static int wait_for_request(long ms) {
  struct timespec step = {0, 20000};
  for (long i = 0; i < ms * 50; i++) {
    if (requested())
      return 1;
    nanosleep(&step, NULL);
  }
  return requested();
}

int main(void) {
  if (!__ws_tail())
    fail("the main thread's first entry did not bind it");
  if (ws_rt.nworkers != 2)
    fail("run with WS_NUM_WORKERS=2");
  int wakes = 0;
  /* Long enough for a thief that still asks: its naps are at most 1 ms. */
  while (wait_for_request(wakes ? 1000 : 10000)) {
    __ws_tail();
    if (requested())
      fail("an entry left the thief's request standing");
    if (++wakes > 200)
      fail("the thief still asks after 200 wakes that found nothing");
  }
  if (!wakes)
    fail("an idle thief never asked an entry to wake it");
  printf("entry_wake: ok\n");
  return 0;
}
